package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.ClusterView;
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

    private PreferredLeaderBalancer() {
    }

    /**
     * Decides one run.
     *
     * @param cluster the snapshot, partitions in candidate-iteration order
     * @param config  the configuration in force for this run
     * @param memory  the previous run's {@link ElectionDecision#nextMemory()}, or
     *                {@link BalancerMemory#empty()} after a (controller) restart
     * @param nowMs   the run's time in milliseconds, on any monotonic scale
     */
    public static ElectionDecision decide(ClusterSnapshot cluster, PacerConfig config, BalancerMemory memory, long nowMs) {
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
            return decide(cluster, PreferredCounts.of(cluster, order, config.waitForSync()), order, config, memory, nowMs);
        }
        PreferredCounts counts = PreferredCounts.fromState(cluster);
        Gate.Verdicts verdicts = Gate.evaluate(cluster, counts, config, memory, nowMs);
        RunSelection selection = config.waitForSync()
                ? StateSelection.waitForSync(cluster, order, verdicts.blocked(), config.maxPerRun(),
                memory.lastRoundRobinStart())
                : StateSelection.immediate(cluster, order, config.maxPerRun(), memory.lastRoundRobinStart());
        return finish(cluster, counts, verdicts, selection, config, nowMs);
    }

    private static ElectionDecision decide(ClusterView cluster, PreferredCounts counts, EffectiveReplicaOrder order,
                                           PacerConfig config, BalancerMemory memory, long nowMs) {
        Gate.Verdicts verdicts = Gate.evaluate(cluster, counts, config, memory, nowMs);
        int tableSize = counts.brokerTableSize();
        int[] elected = new int[tableSize];
        int[] skipped = new int[tableSize];
        int[] deferred = new int[tableSize];

        int cap = config.maxPerRun();
        List<Election> elections = new ArrayList<>(Math.min(cap, 1024));
        int skippedTotal = 0;
        int deferredTotal = 0;
        int lastStart = memory.lastRoundRobinStart();

        if (!config.waitForSync()) {
            // Kafka's loop: the first `cap` valid elections in iteration order, stopping at the cap. The elections
            // the cap deferred are the valid ones among the candidates it did not examine: counted, not made.
            int c = 0;
            for (; c < counts.candidateCount && elections.size() < cap; c++) {
                int i = counts.candidateAt(c);
                int pref = counts.preferredAt(c);
                int target = target(cluster, order, i, pref);
                if (target != PreferredElection.NO_CHANGE) {
                    elections.add(new Election(cluster.partitionAt(i).id(), cluster.leaderAt(i), target,
                            cluster.brokerIdAt(pref)));
                    elected[pref]++;
                }
            }
            for (; c < counts.candidateCount; c++) {
                int pref = counts.preferredAt(c);
                if (target(cluster, order, counts.candidateAt(c), pref) != PreferredElection.NO_CHANGE) {
                    deferred[pref]++;
                    deferredTotal++;
                }
            }
        } else {
            int[] candidateIndex = new int[Math.max(16, counts.candidateCount)];
            int[] candidateBroker = new int[candidateIndex.length];
            int[] candidateTarget = new int[candidateIndex.length];
            int count = 0;
            for (int c = 0; c < counts.candidateCount; c++) {
                int i = counts.candidateAt(c);
                int pref = counts.preferredAt(c);
                int target = target(cluster, order, i, pref);
                if (target == PreferredElection.NO_CHANGE) {
                    continue;
                }
                if (verdicts.blocked()[pref]) {
                    skippedTotal++;
                    skipped[pref]++;
                    continue;
                }
                candidateIndex[count] = i;
                candidateBroker[count] = pref;
                candidateTarget[count] = target;
                count++;
            }
            int[] idOfIndex = new int[tableSize];
            for (int b = 0; b < tableSize; b++) {
                idOfIndex[b] = cluster.brokerIdAt(b);
            }
            RoundRobinSelection.Result chosen = RoundRobinSelection.select(candidateBroker, count, idOfIndex, cap,
                    lastStart);
            for (int j = 0; j < chosen.chosenCount(); j++) {
                int c = chosen.chosen()[j];
                int i = candidateIndex[c];
                elections.add(new Election(cluster.partitionAt(i).id(), cluster.leaderAt(i), candidateTarget[c],
                        cluster.brokerIdAt(candidateBroker[c])));
                elected[candidateBroker[c]]++;
            }
            deferredTotal = count - chosen.chosenCount();
            for (int b = 0; b < tableSize; b++) {
                // per-broker deferred = its electable candidates minus those chosen
                deferred[b] = -elected[b];
            }
            for (int c = 0; c < count; c++) {
                deferred[candidateBroker[c]]++;
            }
            lastStart = chosen.startBroker();
        }
        return finish(cluster, counts, verdicts,
                new RunSelection(elections, elected, skipped, deferred, skippedTotal, deferredTotal, lastStart),
                config, nowMs);
    }

    /** The reports with each broker's run counts, the next memory and the decision. */
    private static ElectionDecision finish(ClusterView cluster, PreferredCounts counts, Gate.Verdicts verdicts,
                                           RunSelection run, PacerConfig config, long nowMs) {
        List<BrokerGateReport> reports = new ArrayList<>(verdicts.reports().size());
        for (BrokerGateReport r : verdicts.reports()) {
            int b = cluster.brokerIndexOf(r.broker());
            reports.add(b >= 0 ? r.withRunCounts(run.elected()[b], run.skipped()[b], run.deferred()[b]) : r);
        }
        BalancerMemory next = new BalancerMemory(verdicts.nextGates(), run.lastStart(), nowMs);
        return new ElectionDecision(nowMs, config, run.elections(), run.elections().size() >= config.maxPerRun(),
                counts.imbalancedCount, run.skippedTotal(), run.deferredTotal(), reports, next);
    }

    /**
     * The election rule's verdict for the candidate at position {@code i}. When the preferred replica is
     * the first assigned one, in the ISR and active (most candidates of a recovery), it is elected; when it is
     * out of a non-empty ISR and the leader is an active ISR member (a broker still catching up), nothing
     * changes. The columns say both without touching the partition object; otherwise
     * {@link PreferredElection} runs in full.
     */
    static int target(ClusterView cluster, EffectiveReplicaOrder order, int i, int pref) {
        if (order.isAssignmentOrder()) {
            if (cluster.firstReplicaInIsrAt(i)) {
                if (cluster.isActiveAt(pref)) {
                    return cluster.brokerIdAt(pref);
                }
            } else if (!cluster.isrEmptyAt(i) && cluster.leaderInIsrAt(i) && cluster.isActiveAt(cluster.leaderIndexAt(i))) {
                // The preferred replica is out of a non-empty ISR, so it cannot lead; the leader is valid and stays.
                return PreferredElection.NO_CHANGE;
            }
        }
        return PreferredElection.decide(cluster.partitionAt(i), cluster, order);
    }
}
