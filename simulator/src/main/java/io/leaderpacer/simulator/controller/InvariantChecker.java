package io.leaderpacer.simulator.controller;

import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.schedule.PeriodicTask;
import io.leaderpacer.simulator.model.ClusterLayout;
import io.leaderpacer.simulator.model.ModelCluster;

/**
 * The rules every simulation must keep, checked while it runs: at every run of the preferred-leader
 * task and after every change the controller makes. A broken rule ends the simulation with an
 * {@link InvariantViolation}: a simulation that reports numbers from an impossible cluster is
 * worse than none.
 */
public final class InvariantChecker {

    private final ClusterLayout layout;
    private final ModelCluster cluster;
    /** How many checks ran (reported, so a test can see they did). */
    private long checks;

    public InvariantChecker(ClusterLayout layout, ModelCluster cluster) {
        this.layout = layout;
        this.cluster = cluster;
    }

    public long checks() {
        return checks;
    }

    /**
     * A decision, before it is applied: within the cap, only valid leaders, nothing for a gated
     * broker, elections against the current leader, and the schedule Kafka's rules give.
     */
    public void checkDecision(ElectionDecision d, PacerConfig config, long nowMs) {
        checks++;
        if (d.elections().size() > config.maxPerRun()) {
            throw violation(nowMs, "run made " + d.elections().size() + " elections, cap is " + config.maxPerRun());
        }
        for (Election e : d.elections()) {
            int p = layout.indexOf(e.partition());
            if (p < 0) {
                throw violation(nowMs, "election for unknown partition " + e.partition());
            }
            if (cluster.leader(p) != e.previousLeader()) {
                throw violation(
                        nowMs,
                        e.partition() + ": election from leader " + e.previousLeader() + " but the leader is "
                                + cluster.leader(p));
            }
            if (e.newLeader() == PartitionState.NO_LEADER) {
                // Kafka's "no leader" record: only for a partition none of whose replicas could lead.
                for (int j = 0; j < layout.replicaCount(p); j++) {
                    int r = layout.replica(p, j);
                    if (cluster.isActive(r) && cluster.isrContains(p, r)) {
                        throw violation(
                                nowMs,
                                e.partition() + ": no leader elected, but " + r + " could lead " + cluster.view(p));
                    }
                }
                continue;
            }
            if (!cluster.isActive(e.newLeader()) || !cluster.isrContains(p, e.newLeader())) {
                throw violation(
                        nowMs,
                        e.partition() + ": elected " + e.newLeader() + ", which is not an active ISR member "
                                + cluster.view(p));
            }
            if (d.isGated(e.preferredBroker())) {
                throw violation(
                        nowMs,
                        e.partition() + ": elected while its preferred broker " + e.preferredBroker() + " is gated");
            }
            if (e.toPreferred() && d.isGated(e.newLeader())) {
                throw violation(nowMs, e.partition() + ": leadership given to gated broker " + e.newLeader());
            }
        }
        if (!config.waitForSync()) {
            for (BrokerGateReport r : d.brokers()) {
                if (r.verdict().phase() != GatePhase.NOT_APPLICABLE) {
                    throw violation(
                            nowMs,
                            "broker " + r.broker() + " has gate phase "
                                    + r.verdict().phase() + " under immediate");
                }
            }
        }
        long period = config.checkIntervalSeconds() * 1000L;
        boolean recheck = config.waitForSync() && config.recheck().enabled() && d.gatedBrokerCount() > 0;
        long expected = d.moreWork()
                ? (config.throttleIntervalMs() > 0 ? config.throttleIntervalMs() : PeriodicTask.IMMEDIATE_PERIOD_MS)
                : recheck ? Math.min(period, config.recheck().intervalMs()) : period;
        if (d.nextRunDelayMs() != expected) {
            throw violation(nowMs, "next run in " + d.nextRunDelayMs() + " ms, Kafka's schedule says " + expected);
        }
    }

    /** Every partition: its leader, if any, is an unfenced ISR member (or was elected uncleanly). */
    public void checkPartitions(long nowMs) {
        checks++;
        for (int p = 0; p < layout.partitions; p++) {
            checkPartition(p, nowMs);
        }
    }

    /** One partition, after a change to it. */
    public void checkPartition(int p, long nowMs) {
        int leader = cluster.leader(p);
        if (cluster.isrSize(p) == 0) {
            throw violation(nowMs, layout.ids[p] + ": empty ISR " + cluster.view(p));
        }
        if (leader == PartitionState.NO_LEADER) {
            return;
        }
        if (!cluster.isrContains(p, leader) && !cluster.isUnclean(p)) {
            throw violation(nowMs, layout.ids[p] + ": leader " + leader + " outside the ISR " + cluster.view(p));
        }
        if (cluster.isFenced(leader)) {
            throw violation(nowMs, layout.ids[p] + ": leader " + leader + " is fenced");
        }
    }

    private static InvariantViolation violation(long nowMs, String what) {
        return new InvariantViolation("at " + nowMs + " ms: " + what);
    }
}
