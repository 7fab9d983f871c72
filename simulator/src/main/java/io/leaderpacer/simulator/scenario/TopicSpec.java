package io.leaderpacer.simulator.scenario;

import java.util.List;

/**
 * One topic of the simulated workload. Internal topics such as {@code __consumer_offsets} are
 * ordinary topics here: they take part in the gate and the throttle like any other.
 *
 * @param name                      topic name
 * @param partitions                partition count
 * @param replicationFactor         replicas per partition
 * @param produceBytesPerSecond     the topic's total produce rate
 * @param produceRequestsPerSecond  its total produce request rate (acks=all), spread evenly
 * @param consumerRequestsPerSecond its total consumer fetch request rate, spread evenly (load only)
 * @param skew                      how bytes are spread over partitions
 * @param retentionMs               how much of each partition's history a replaced disk must copy
 * @param uncleanLeaderElection     unclean.leader.election.enable for the topic
 * @param assignment                explicit replica lists per partition, or empty for round-robin
 * @param backlogBytes              bytes written to the topic while a restarted broker was down, on top of
 *                                  {@code produceBytesPerSecond x downtime}: the backlog as an operator knows it
 * @param backlogSkew               how the backlog is spread over partitions (when no sizes are given)
 * @param backlogSizes              relative backlog per partition (e.g. read from a CSV of partition sizes), or
 *                                  empty to draw it from {@code backlogSkew}
 * @param acksAll                   producers use acks=all (true) or acks=1 (false: no follower in the write path)
 */
public record TopicSpec(
        String name,
        int partitions,
        int replicationFactor,
        double produceBytesPerSecond,
        double produceRequestsPerSecond,
        double consumerRequestsPerSecond,
        RateSkew skew,
        long retentionMs,
        boolean uncleanLeaderElection,
        List<int[]> assignment,
        double backlogBytes,
        RateSkew backlogSkew,
        List<Double> backlogSizes,
        boolean acksAll) {

    public TopicSpec {
        assignment = List.copyOf(assignment);
        backlogSizes = List.copyOf(backlogSizes);
    }

    /** A topic without a separate backlog, written with acks=all. */
    public TopicSpec(String name, int partitions, int replicationFactor, double produceBytesPerSecond,
                     double produceRequestsPerSecond, double consumerRequestsPerSecond, RateSkew skew, long retentionMs,
                     boolean uncleanLeaderElection, List<int[]> assignment) {
        this(name, partitions, replicationFactor, produceBytesPerSecond, produceRequestsPerSecond,
                consumerRequestsPerSecond, skew, retentionMs, uncleanLeaderElection, assignment, 0, skew, List.of(), true);
    }

    public boolean hasExplicitAssignment() {
        return !assignment.isEmpty();
    }

    /** The same topic with a different partition count (for scaled-down test simulations; drops an explicit assignment). */
    public TopicSpec withPartitions(int count) {
        return new TopicSpec(name, count, replicationFactor, produceBytesPerSecond, produceRequestsPerSecond,
                consumerRequestsPerSecond, skew, retentionMs, uncleanLeaderElection,
                count == partitions ? assignment : List.of(), backlogBytes, backlogSkew,
                count == partitions ? backlogSizes : List.of(), acksAll);
    }
}
