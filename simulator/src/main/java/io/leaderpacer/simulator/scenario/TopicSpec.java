package io.leaderpacer.simulator.scenario;

import java.util.List;

/**
 * One topic of the simulated workload. Internal topics such as {@code __consumer_offsets} are
 * ordinary topics here: they take part in the gate and the throttle like any other.
 *
 * @param name                  topic name
 * @param layout                its partitions and where their replicas are
 * @param traffic               what producers and consumers send it
 * @param backlog               what a restarted broker must catch up on, beyond the produce rate while it was down
 * @param retentionMs           how much of each partition's history a replaced disk must copy
 * @param uncleanLeaderElection unclean.leader.election.enable for the topic
 */
public record TopicSpec(
        String name, Layout layout, Traffic traffic, Backlog backlog, long retentionMs, boolean uncleanLeaderElection) {

    /**
     * The topic's partitions.
     *
     * @param partitions        partition count
     * @param replicationFactor replicas per partition
     * @param assignment        explicit replica lists per partition, or empty for round-robin
     */
    public record Layout(int partitions, int replicationFactor, List<int[]> assignment) {
        public Layout {
            assignment = List.copyOf(assignment);
        }

        public boolean hasExplicitAssignment() {
            return !assignment.isEmpty();
        }
    }

    /**
     * The topic's load.
     *
     * @param produceBytesPerSecond     the topic's total produce rate
     * @param produceRequestsPerSecond  its total produce request rate, spread evenly
     * @param consumerRequestsPerSecond its total consumer fetch request rate, spread evenly (load only)
     * @param skew                      how bytes are spread over partitions
     * @param acksAll                   producers use acks=all (true) or acks=1 (false: no follower in the write path)
     */
    public record Traffic(
            double produceBytesPerSecond,
            double produceRequestsPerSecond,
            double consumerRequestsPerSecond,
            RateSkew skew,
            boolean acksAll) {}

    /**
     * The backlog as an operator knows it.
     *
     * @param bytes bytes written to the topic while a restarted broker was down, on top of
     *              {@code produceBytesPerSecond x downtime}
     * @param skew  how the backlog is spread over partitions (when no sizes are given)
     * @param sizes relative backlog per partition (e.g. read from a CSV of partition sizes), or empty to draw it
     *              from {@code skew}
     */
    public record Backlog(double bytes, RateSkew skew, List<Double> sizes) {
        public Backlog {
            sizes = List.copyOf(sizes);
        }
    }

    /** The same topic with a different partition count (for scaled-down test simulations; drops an explicit assignment). */
    public TopicSpec withPartitions(int count) {
        boolean same = count == layout.partitions();
        return new TopicSpec(
                name,
                same ? layout : new Layout(count, layout.replicationFactor(), List.of()),
                traffic,
                same ? backlog : new Backlog(backlog.bytes(), backlog.skew(), List.of()),
                retentionMs,
                uncleanLeaderElection);
    }
}
