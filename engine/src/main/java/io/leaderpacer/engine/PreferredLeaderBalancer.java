package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.ClusterView;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One run of the periodic preferred-leader task: Kafka's
 * {@code maybeBalancePartitionLeaders()} with KIP-1358's gate, throttle and round-robin, and
 * KIP-491's effective order.
 *
 * <p>A pure function: snapshot, configuration, time and memory in; decision out. It never reads a
 * clock, does no I/O and keeps nothing between calls, so the controller, the simulator and the
 * agent all get the same decisions from the same inputs.
 */
public final class PreferredLeaderBalancer {

    private PreferredLeaderBalancer() {}

    /**
     * Decides one run.
     *
     * @param cluster the snapshot, partitions in candidate-iteration order
     * @param config  the configuration in force for this run
     * @param memory  the previous run's {@link ElectionDecision#nextMemory()}, or
     *                {@link BalancerMemory#empty()} after a (controller) restart
     * @param nowMs   the run's time in milliseconds, on any monotonic scale
     */
    public static ElectionDecision decide(
            ClusterSnapshot cluster, PacerConfig config, BalancerMemory memory, long nowMs) {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(memory, "memory");
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(config.deprioritizedBrokers());
        return decide(cluster, PreferredCounts.of(cluster, order, config.waitForSync()), order, config, memory, nowMs);
    }

    /**
     * Decides one run over state kept up to date by replay: the same decision as over
     * {@link ClusterState#snapshot()}, without a pass over every partition when the deprioritized list is empty
     * (the state keeps the per-broker counts and the candidate set; with a list, the preferred replicas differ
     * from the first assigned ones and the run makes the full pass).
     */
    public static ElectionDecision decide(ClusterState cluster, PacerConfig config, BalancerMemory memory, long nowMs) {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(memory, "memory");
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(config.deprioritizedBrokers());
        if (!order.isAssignmentOrder()) {
            return decide(
                    cluster, PreferredCounts.of(cluster, order, config.waitForSync()), order, config, memory, nowMs);
        }
        PreferredCounts counts = PreferredCounts.fromState(cluster);
        Gate.Verdicts verdicts = Gate.evaluate(cluster, counts, config, memory, nowMs);
        RunSelection selection = config.waitForSync()
                ? StateSelection.waitForSync(
                        cluster, order, verdicts.blocked(), config.maxPerRun(), memory.lastRoundRobinStart())
                : StateSelection.immediate(cluster, order, config.maxPerRun(), memory.lastRoundRobinStart());
        return finish(cluster, counts, verdicts, selection, config, nowMs);
    }

    private static ElectionDecision decide(
            ClusterView cluster,
            PreferredCounts counts,
            EffectiveReplicaOrder order,
            PacerConfig config,
            BalancerMemory memory,
            long nowMs) {
        Gate.Verdicts verdicts = Gate.evaluate(cluster, counts, config, memory, nowMs);
        RunSelection selection = config.waitForSync()
                ? SnapshotSelection.waitForSync(
                        cluster, counts, order, verdicts.blocked(), config.maxPerRun(), memory.lastRoundRobinStart())
                : SnapshotSelection.immediate(cluster, counts, order, config.maxPerRun(), memory.lastRoundRobinStart());
        return finish(cluster, counts, verdicts, selection, config, nowMs);
    }

    /** The reports with each broker's run counts, the next memory and the decision. */
    private static ElectionDecision finish(
            ClusterView cluster,
            PreferredCounts counts,
            Gate.Verdicts verdicts,
            RunSelection run,
            PacerConfig config,
            long nowMs) {
        List<BrokerGateReport> reports = new ArrayList<>(verdicts.reports().size());
        for (BrokerGateReport r : verdicts.reports()) {
            int b = cluster.brokerIndexOf(r.broker());
            reports.add(
                    b >= 0
                            ? r.withRunCounts(new BrokerGateReport.RunCounts(
                                    run.elected()[b], run.skipped()[b], run.deferred()[b]))
                            : r);
        }
        checkElections(cluster, run.elections(), config.maxPerRun());
        BalancerMemory next = new BalancerMemory(verdicts.nextGates(), run.lastStart(), nowMs);
        return new ElectionDecision(
                nowMs,
                config,
                run.elections(),
                run.elections().size() >= config.maxPerRun(),
                counts.imbalancedCount,
                run.skippedTotal(),
                run.deferredTotal(),
                reports,
                next);
    }

    /**
     * What every run's elections must be, checked where they are made (a pass over them, no lookup but the
     * broker's index): no more than the cap, none that names the leader a partition already has, and none to a
     * broker that cannot lead (Kafka's election may write "no leader", as the engine then does too). A selection
     * change that breaks one fails the run here, before Kafka is asked.
     *
     * @throws IllegalStateException naming the first election that breaks one
     */
    static void checkElections(ClusterView cluster, List<Election> elections, int cap) {
        if (elections.size() > cap) {
            throw new IllegalStateException(elections.size() + " elections in one run, over max.per.run " + cap);
        }
        for (Election e : elections) {
            if (e.newLeader() == e.previousLeader()) {
                throw new IllegalStateException("an election of the leader the partition has: " + e);
            }
            if (e.newLeader() != PartitionState.NO_LEADER && !cluster.isActive(e.newLeader())) {
                throw new IllegalStateException("an election to a broker that is not active: " + e);
            }
        }
    }
}
