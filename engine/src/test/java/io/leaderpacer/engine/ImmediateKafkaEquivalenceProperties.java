package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.controller.KafkaControllerReference;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code immediate} against Kafka 4.3.1's own {@code maybeBalancePartitionLeaders} over random clusters
 * (fenced and shutting-down brokers and leaders, unregistered replicas, leaderless partitions, empty ISRs with
 * ELR, reassignments, deleted topics), caps from 1 up, drained to the end:
 * <ul>
 *   <li>in Kafka's iteration order, the exact ordered records, run after run, also when brokers are fenced,
 *       unfenced or shut down between runs;</li>
 *   <li>in any other order, valid elections by Kafka's rule, as many per run as Kafka (the cap cuts a different
 *       set; with ELR off), as many in the whole drain, and the same leaders at the end.</li>
 * </ul>
 *
 * <p>A drain ends with a run that elects nothing, not with the first run that says no more work: "more work" only
 * says the cap was reached (the controller then runs again at once), and with ELR on a run below the cap can leave a
 * partition electable again (a "no leader" election makes its last known leader its candidate), which the next
 * periodic run elects.
 */
class ImmediateKafkaEquivalenceProperties {

    @Provide
    Arbitrary<ClusterSnapshot> clusters() {
        return RandomClusters.clusters();
    }

    /** Between two runs: nothing, or broker {@code id % brokers} becomes active, fenced or shutting down. */
    @Provide
    Arbitrary<List<Integer>> brokerChanges() {
        return Arbitraries.integers().between(-6, 23).list().ofMaxSize(12);
    }

    @Property(tries = 300)
    void inKafkasIterationOrder_immediateMakesKafkasExactRecords_runAfterRun_toTheEnd(
            @ForAll("clusters") ClusterSnapshot generated,
            @ForAll @IntRange(min = 1, max = 25) int cap,
            @ForAll boolean elr,
            @ForAll("brokerChanges") List<Integer> changes) {
        ClusterSnapshot start = KafkaShaped.of(generated, elr);
        KafkaControllerReference kafka = KafkaControllerReference.load(start, cap, elr);
        List<Integer> registered = new ArrayList<>(start.brokers().keySet());
        BalancerMemory memory = BalancerMemory.empty();

        for (int run = 0; run < 200; run++) {
            if (run < changes.size() && changes.get(run) >= 0 && !registered.isEmpty()) {
                int c = changes.get(run);
                int id = registered.get(c % registered.size());
                BrokerState next = switch ((c / registered.size()) % 3) {
                    case 0 -> BrokerState.active(id);
                    case 1 -> BrokerState.fenced(id);
                    default -> BrokerState.shuttingDown(id);
                };
                if (kafka.canChange(next)) {
                    kafka.changeBroker(next);
                }
            }
            ClusterSnapshot snapshot = kafka.snapshotInIterationOrder();
            ElectionDecision engine =
                    PreferredLeaderBalancer.decide(snapshot, PacerConfigs.immediate(cap), memory, run);
            KafkaControllerReference.Run reference = kafka.run();

            assertThat(engine.elections())
                    .as(
                            "run %d over %s %s, from %s",
                            run, snapshot.brokers().values(), snapshot.partitions(), start.partitions())
                    .isEqualTo(reference.elections());
            assertThat(engine.moreWork()).as("run %d", run).isEqualTo(reference.moreWork());
            memory = engine.nextMemory();
            if (!reference.moreWork() && run >= changes.size()) {
                return;
            }
        }
        throw new AssertionError("the drain did not end");
    }

    @Property(tries = 300)
    void inAnotherOrder_immediateMakesValidElections_asManyAsKafka_andDrainsToTheSameLeaders(
            @ForAll("clusters") ClusterSnapshot generated,
            @ForAll @IntRange(min = 1, max = 25) int cap,
            @ForAll boolean elr) {
        ClusterSnapshot engineState = KafkaShaped.of(generated, elr);
        KafkaControllerReference kafka = KafkaControllerReference.load(engineState, cap, elr);
        List<Integer> kafkaRuns = new ArrayList<>();
        for (boolean more = true; more && kafkaRuns.size() < 200; ) {
            KafkaControllerReference.Run run = kafka.run();
            kafkaRuns.add(run.elections().size());
            more = run.moreWork() || !run.elections().isEmpty();
        }
        List<Integer> engineRuns = new ArrayList<>();
        BalancerMemory memory = BalancerMemory.empty();
        for (boolean more = true; more && engineRuns.size() < 200; ) {
            ElectionDecision engine =
                    PreferredLeaderBalancer.decide(engineState, PacerConfigs.immediate(cap), memory, engineRuns.size());
            Map<PartitionId, PartitionState> parts = byId(engineState);
            for (Election e : engine.elections()) {
                PartitionState p = parts.get(e.partition());
                assertThat(e)
                        .as("Kafka's rule for %s", p)
                        .isEqualTo(new Election(p.id(), p.leader(), kafkaRule(engineState, p), p.replicaAt(0)));
            }
            engineRuns.add(engine.elections().size());
            more = engine.moreWork() || !engine.elections().isEmpty();
            memory = engine.nextMemory();
            engineState = LeaderChanges.applyTo(engineState, engine, elr);
        }

        assertThat(leaders(engineState))
                .as("leaders after the drain")
                .isEqualTo(leaders(kafka.snapshotInIterationOrder()));
        assertThat(engineRuns.stream().mapToInt(Integer::intValue).sum())
                .as("elections in the drain")
                .isEqualTo(kafkaRuns.stream().mapToInt(Integer::intValue).sum());
        if (!elr) {
            // Each election settles its own partition, so every run elects min(cap, still electable), whatever the
            // order. With ELR on, a "no leader" election makes the partition electable again (its last known
            // leader), so which partitions the cap cut decides the next runs' sizes.
            assertThat(engineRuns).as("elections per run").isEqualTo(kafkaRuns);
        }
    }

    /**
     * The case that showed a drain must end on a run that elects nothing (shrunk by jqwik): at cap 2 the engine's
     * order takes the two leaderless single-replica partitions first and writes "no leader" for t2-0 in a second run
     * below the cap, so only a third run elects t2-0's last known leader, as Kafka's order had in its second run.
     */
    @Example
    void elrNoLeaderWrittenBelowTheCap_theNextRunElectsTheLastKnownLeader_asKafkasDrainDid() {
        int[] none = new int[0];
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(new PartitionState(
                        new PartitionId("t0", 0),
                        new int[] {0},
                        new int[] {0},
                        none,
                        PartitionState.NO_LEADER,
                        false,
                        false,
                        none))
                .partition(new PartitionState(
                        new PartitionId("t1", 0),
                        new int[] {0},
                        new int[] {0},
                        none,
                        PartitionState.NO_LEADER,
                        false,
                        false,
                        none))
                .partition(new PartitionState(
                        new PartitionId("t2", 0), new int[] {0, 1}, none, none, 1, true, false, none))
                .build();
        inAnotherOrder_immediateMakesValidElections_asManyAsKafka_andDrainsToTheSameLeaders(cluster, 2, true);
    }

    /** Kafka's PREFERRED rule, stated here only to check validity; the exactness comes from Kafka's code above. */
    private static int kafkaRule(ClusterSnapshot cluster, PartitionState p) {
        if (valid(cluster, p, p.replicaAt(0))) {
            return p.replicaAt(0);
        }
        if (p.hasLeader() && valid(cluster, p, p.leader())) {
            return p.leader();
        }
        for (int i = 1; i < p.replicaCount(); i++) {
            if (valid(cluster, p, p.replicaAt(i))) {
                return p.replicaAt(i);
            }
        }
        if (p.isrIsEmpty() && p.elrIsEmpty() && p.lastKnownLeader() >= 0 && cluster.isActive(p.lastKnownLeader())) {
            return p.lastKnownLeader();
        }
        return PartitionState.NO_LEADER;
    }

    private static boolean valid(ClusterSnapshot cluster, PartitionState p, int b) {
        return cluster.isActive(b) && (p.isrContains(b) || (p.isrIsEmpty() && p.elrContains(b)));
    }

    private static Map<PartitionId, PartitionState> byId(ClusterSnapshot cluster) {
        Map<PartitionId, PartitionState> m = new HashMap<>();
        cluster.partitions().forEach(p -> m.put(p.id(), p));
        return m;
    }

    private static Map<PartitionId, Integer> leaders(ClusterSnapshot cluster) {
        Map<PartitionId, Integer> m = new HashMap<>();
        cluster.partitions().forEach(p -> m.put(p.id(), p.leader()));
        return m;
    }

    /**
     * Fits a generated cluster to the invariants Kafka's controller keeps, so that its builder writes records only
     * for elections: an ELR only when the ISR is empty (below a min ISR of 1), and none when the feature is off; at
     * most one ELR member (after an election from a larger ELR, Kafka leaves the others in the ELR beside a
     * one-member ISR, and its next build of that partition writes a record that only clears them: housekeeping,
     * not an election, which the engine does not model); a reassignment only where a replica can be loaded as being added; partitions of
     * each topic numbered from 0; a topic deleted as a whole.
     */
    static final class KafkaShaped {

        private KafkaShaped() {}

        static ClusterSnapshot of(ClusterSnapshot generated, boolean elr) {
            List<PartitionState> parts = new ArrayList<>();
            Map<String, Integer> nextIndex = new HashMap<>();
            for (PartitionState p : generated.partitions()) {
                // Kafka's topics number their partitions from 0 (its min-ISR lookup reads partition 0), and a topic
                // is deleted as a whole.
                String topic = (p.topicDeleting() ? "deleted-" : "") + p.id().topic();
                PartitionId id = new PartitionId(topic, nextIndex.merge(topic, 1, Integer::sum) - 1);
                int[] isr = p.isr();
                int[] elrs = elr && isr.length == 0
                        ? Arrays.stream(p.elr()).sorted().limit(1).toArray()
                        : new int[0];
                PartitionState shaped =
                        new PartitionState(id, p.replicas(), isr, elrs, p.leader(), false, p.topicDeleting());
                boolean canReassign = KafkaControllerReference.addingReplica(shaped) >= 0;
                parts.add(shaped.withReassigning(p.reassigning() && canReassign));
            }
            return ClusterSnapshot.builder()
                    .brokers(generated.brokers().values())
                    .partitions(parts)
                    .build();
        }
    }
}
