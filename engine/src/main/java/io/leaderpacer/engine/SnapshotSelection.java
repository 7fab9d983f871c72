package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterView;

import java.util.ArrayList;
import java.util.List;

/**
 * The selection of a run over a snapshot (or over a state whose deprioritized list makes the run walk every
 * candidate): the candidates {@link PreferredCounts} collected, in iteration order, each evaluated by the election
 * rule.
 *
 * <p>{@code immediate} is Kafka's loop: the first {@code max.per.run} valid elections in iteration order, stopping
 * at the cap. {@code wait-for-sync} drops the candidates of gated brokers, then lets {@link RoundRobinSelection}
 * take from the remaining brokers in turn. {@link StateSelection} makes the same selections from a replayed state's
 * buckets; the engine's properties compare the two.
 */
final class SnapshotSelection {

    private SnapshotSelection() {}

    static RunSelection immediate(
            ClusterView cluster, PreferredCounts counts, EffectiveReplicaOrder order, int cap, int lastStart) {
        int tableSize = counts.brokerTableSize();
        int[] elected = new int[tableSize];
        int[] deferred = new int[tableSize];
        List<Election> elections = new ArrayList<>(Math.min(cap, 1024));
        // The elections the cap deferred are the valid ones among the candidates Kafka's loop did not examine:
        // counted, not made.
        int c = 0;
        for (; c < counts.candidateCount && elections.size() < cap; c++) {
            int i = counts.candidateAt(c);
            int pref = counts.preferredAt(c);
            int target = PreferredElection.targetAt(cluster, order, i, pref);
            if (target != PreferredElection.NO_CHANGE) {
                elections.add(new Election(
                        cluster.partitionAt(i).id(), cluster.leaderAt(i), target, cluster.brokerIdAt(pref)));
                elected[pref]++;
            }
        }
        for (; c < counts.candidateCount; c++) {
            int pref = counts.preferredAt(c);
            if (PreferredElection.targetAt(cluster, order, counts.candidateAt(c), pref)
                    != PreferredElection.NO_CHANGE) {
                deferred[pref]++;
            }
        }
        return RunSelection.capped(elections, elected, deferred, lastStart);
    }

    static RunSelection waitForSync(
            ClusterView cluster,
            PreferredCounts counts,
            EffectiveReplicaOrder order,
            boolean[] blocked,
            int cap,
            int lastStart) {
        int tableSize = counts.brokerTableSize();
        int[] elected = new int[tableSize];
        int[] skipped = new int[tableSize];
        int[] electable = new int[tableSize];

        int[] candidateIndex = new int[Math.max(16, counts.candidateCount)];
        int[] candidateBroker = new int[candidateIndex.length];
        int[] candidateTarget = new int[candidateIndex.length];
        int count = 0;
        for (int c = 0; c < counts.candidateCount; c++) {
            int i = counts.candidateAt(c);
            int pref = counts.preferredAt(c);
            int target = PreferredElection.targetAt(cluster, order, i, pref);
            if (target == PreferredElection.NO_CHANGE) {
                continue;
            }
            if (blocked[pref]) {
                skipped[pref]++;
                continue;
            }
            electable[pref]++;
            candidateIndex[count] = i;
            candidateBroker[count] = pref;
            candidateTarget[count] = target;
            count++;
        }
        int[] idOfIndex = new int[tableSize];
        for (int b = 0; b < tableSize; b++) {
            idOfIndex[b] = cluster.brokerIdAt(b);
        }
        RoundRobinSelection.Result chosen =
                RoundRobinSelection.select(candidateBroker, count, idOfIndex, cap, lastStart);
        List<Election> elections = new ArrayList<>(Math.min(cap, 1024));
        for (int j = 0; j < chosen.chosenCount(); j++) {
            int c = chosen.chosen()[j];
            int i = candidateIndex[c];
            elections.add(new Election(
                    cluster.partitionAt(i).id(),
                    cluster.leaderAt(i),
                    candidateTarget[c],
                    cluster.brokerIdAt(candidateBroker[c])));
            elected[candidateBroker[c]]++;
        }
        return RunSelection.roundRobin(elections, elected, electable, skipped, chosen.startBroker());
    }
}
