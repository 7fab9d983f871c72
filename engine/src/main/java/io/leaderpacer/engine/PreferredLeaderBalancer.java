package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerIndex;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One run of the periodic preferred-leader task: Kafka's
 * {@code maybeBalancePartitionLeaders()} with the seed's gate, throttle and round-robin, and
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
        PreferredCounts counts = PreferredCounts.of(cluster, order, config.waitForSync());
        Gate.Verdicts verdicts = Gate.evaluate(cluster, counts, config, memory, nowMs);
        BrokerIndex index = cluster.brokerIndex();
        int tableSize = counts.brokerTableSize();
        int[] elected = new int[tableSize];
        int[] skipped = new int[tableSize];
        int[] deferred = new int[tableSize];

        List<PartitionState> partitions = cluster.partitions();
        int cap = config.maxPerRun();
        List<Election> elections = new ArrayList<>(Math.min(cap, 1024));
        int skippedTotal = 0;
        int deferredTotal = 0;
        int lastStart = memory.lastRoundRobinStart();

        if (!config.waitForSync()) {
            // Legacy: the first `cap` valid elections in iteration order.
            for (int c = 0; c < counts.candidateCount; c++) {
                int i = counts.candidates[c];
                int pref = counts.candidatePreferred[c];
                int target = target(cluster, order, i, pref);
                if (target == PreferredElection.NO_CHANGE) {
                    continue;
                }
                if (elections.size() < cap) {
                    elections.add(new Election(partitions.get(i).id(), cluster.leaderAt(i), target, index.idAt(pref)));
                    elected[pref]++;
                } else {
                    deferredTotal++;
                    deferred[pref]++;
                }
            }
        } else {
            int[] candidateIndex = new int[Math.max(16, counts.candidateCount)];
            int[] candidateBroker = new int[candidateIndex.length];
            int[] candidateTarget = new int[candidateIndex.length];
            int count = 0;
            for (int c = 0; c < counts.candidateCount; c++) {
                int i = counts.candidates[c];
                int pref = counts.candidatePreferred[c];
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
            RoundRobinSelection.Result chosen = RoundRobinSelection.select(candidateBroker, count, tableSize, cap,
                    lastStart < 0 ? -1 : index.firstIndexAfter(lastStart) - 1);
            for (int j = 0; j < chosen.chosenCount(); j++) {
                int c = chosen.chosen()[j];
                int i = candidateIndex[c];
                elections.add(new Election(partitions.get(i).id(), cluster.leaderAt(i), candidateTarget[c],
                        index.idAt(candidateBroker[c])));
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
            lastStart = chosen.startBroker() < 0 || count == 0 ? lastStart : index.idAt(chosen.startBroker());
        }

        List<BrokerGateReport> reports = new ArrayList<>(verdicts.reports().size());
        for (BrokerGateReport r : verdicts.reports()) {
            int b = index.indexOf(r.broker());
            reports.add(b >= 0 ? r.withRunCounts(elected[b], skipped[b], deferred[b]) : r);
        }
        BalancerMemory next = new BalancerMemory(verdicts.nextGates(), lastStart, nowMs);
        return new ElectionDecision(nowMs, config, elections, elections.size() >= cap, counts.imbalancedCount,
                skippedTotal, deferredTotal, reports, next);
    }

    /**
     * The election rule's verdict for the candidate at snapshot position {@code i}. When the
     * preferred replica is the first assigned one, in the ISR and active (most candidates of a
     * recovery), it is elected, and the snapshot's columns say so without touching the partition
     * object; otherwise {@link PreferredElection} runs in full.
     */
    private static int target(ClusterSnapshot cluster, EffectiveReplicaOrder order, int i, int pref) {
        if (order.isAssignmentOrder() && cluster.firstReplicaInIsrAt(i) && cluster.isActiveAt(pref)) {
            return cluster.brokerIndex().idAt(pref);
        }
        return PreferredElection.decide(cluster.partitions().get(i), cluster, order);
    }
}
