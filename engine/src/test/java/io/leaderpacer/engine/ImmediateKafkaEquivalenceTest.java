package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.apache.kafka.controller.KafkaControllerReference;
import org.junit.jupiter.api.Test;

import static io.leaderpacer.engine.RecoveryClusterBuilder.ints;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hand-worked cases of {@code immediate} against Kafka 4.3.1's own {@code maybeBalancePartitionLeaders}
 * ({@link KafkaControllerReference}): the snapshot is Kafka's state in Kafka's iteration order, and each run's
 * elections must be Kafka's records, in order, run after run as they are replayed.
 */
class ImmediateKafkaEquivalenceTest {

    /** Drains both to the end and returns the number of runs; fails on the first run that differs. */
    static int drainAndCompare(KafkaControllerReference kafka, int cap) {
        BalancerMemory memory = BalancerMemory.empty();
        for (int run = 0; run < 10_000; run++) {
            ClusterSnapshot snapshot = kafka.snapshotInIterationOrder();
            ElectionDecision engine =
                    PreferredLeaderBalancer.decide(snapshot, PacerConfigs.immediate(cap), memory, run);
            KafkaControllerReference.Run reference = kafka.run();

            assertThat(engine.elections())
                    .as("run %d of %s", run, snapshot.partitions())
                    .isEqualTo(reference.elections());
            assertThat(engine.moreWork()).as("run %d", run).isEqualTo(reference.moreWork());
            memory = engine.nextMemory();
            if (!reference.moreWork()) {
                return run + 1;
            }
        }
        throw new AssertionError("no end to the drain");
    }

    @Test
    void issueSmallestLeaderlessCase_kafkaWritesNoLeader_andSoDoesTheEngine() {
        // Broker 0 active, broker 1 fenced; replicas [0,1], isr [1], leader 1.
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.fenced(1))
                .partition(PartitionState.of("t", 0, ints(0, 1), ints(1), 1))
                .build();
        KafkaControllerReference kafka = KafkaControllerReference.load(cluster, 1, false);

        KafkaControllerReference.Run run = kafka.run();
        ElectionDecision engine =
                PreferredLeaderBalancer.decide(cluster, PacerConfigs.immediate(1), BalancerMemory.empty(), 0);

        assertThat(run.elections())
                .containsExactly(new Election(new PartitionId("t", 0), 1, PartitionState.NO_LEADER, 0));
        assertThat(run.moreWork()).isTrue();
        assertThat(engine.elections()).isEqualTo(run.elections());
        assertThat(engine.moreWork()).isTrue();
    }

    @Test
    void leaderlessPartitionsAmongElectableOnes_atCapOne_drainInAsManyRunsAsKafka() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.fenced(1))
                .broker(BrokerState.active(2));
        for (int p = 0; p < 3; p++) {
            b.partition(PartitionState.of("dead", p, ints(0, 1), ints(1), 1));
            b.partition(PartitionState.of("live", p, ints(0, 2), ints(0, 2), 2));
        }
        int runs = drainAndCompare(KafkaControllerReference.load(b.build(), 1, false), 1);

        assertThat(runs).as("6 records, one per run, then an empty run").isEqualTo(7);
    }

    @Test
    void partitionUnderReassignment_kafkaElectsItsPreferredReplica_andSoDoesImmediate() {
        // Replica 3 is being added (outside the ISR), so Kafka's builder does not complete the reassignment.
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(PartitionState.of("moving", 0, ints(1, 2, 3), ints(1, 2), 2)
                        .withReassigning(true))
                .build();
        KafkaControllerReference kafka = KafkaControllerReference.load(cluster, 10, false);

        ClusterSnapshot ordered = kafka.snapshotInIterationOrder();
        KafkaControllerReference.Run run = kafka.run();

        assertThat(run.elections()).extracting(Election::newLeader).containsExactly(1);
        assertThat(PreferredLeaderBalancer.decide(ordered, PacerConfigs.immediate(10), BalancerMemory.empty(), 0)
                        .elections())
                .isEqualTo(run.elections());
    }

    @Test
    void fencedAndShuttingDownLeaders_firstValidReplicaTakesOver_asInKafka() {
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(5)
                .replaceBroker(BrokerState.fenced(1))
                .replaceBroker(BrokerState.shuttingDown(2))
                // preferred 1 fenced, leader 2 shutting down: the first valid replica after them, 3
                .partition(PartitionState.of("t", 0, ints(1, 2, 3, 4), ints(1, 2, 3, 4), 2))
                // preferred 2 shutting down, leader 4 valid: no change
                .partition(PartitionState.of("t", 1, ints(2, 3, 4), ints(2, 3, 4), 4))
                // preferred 3 valid, leader 1 fenced: 3
                .partition(PartitionState.of("t", 2, ints(3, 1), ints(3, 1), 1))
                // everything invalid but broker 4 is outside the ISR: no leader
                .partition(PartitionState.of("t", 3, ints(1, 2, 4), ints(1, 2), 1))
                .build();

        drainAndCompare(KafkaControllerReference.load(cluster, 1000, false), 1000);
    }

    @Test
    void emptyIsrWithElr_kafkaElectsTheFirstValidElrMember_andSoDoesImmediate() {
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(4)
                .partition(new PartitionState(
                        new PartitionId("t", 0),
                        ints(1, 2, 3),
                        ints(),
                        ints(2, 3),
                        PartitionState.NO_LEADER,
                        false,
                        false))
                .partition(
                        new PartitionState(new PartitionId("t", 1), ints(1, 2, 3), ints(), ints(1, 3), 3, false, false))
                .build();

        drainAndCompare(KafkaControllerReference.load(cluster, 1000, true), 1000);
    }

    @Test
    void elrOn_leaderLostWithAnEmptyIsrAndElr_kafkaWritesNoLeaderThenElectsTheLastKnownLeader_andSoDoesImmediate() {
        // Leader 1 is active but out of the (empty) ISR: no replica is valid. Kafka writes "no leader" and records
        // 1 as the last known leader; the next run elects it, uncleanly (KIP-966's balanced recovery).
        ClusterSnapshot cluster = ClusterSnapshot.builder()
                .activeBrokers(2)
                .partition(PartitionState.of("t", 0, ints(0, 1), ints(), 1))
                .build();
        KafkaControllerReference kafka = KafkaControllerReference.load(cluster, 10, true);

        drainAndCompare(kafka, 10);
        assertThat(kafka.snapshotInIterationOrder().partitions().get(0).leader())
                .isEqualTo(PartitionState.NO_LEADER);
        assertThat(kafka.snapshotInIterationOrder().partitions().get(0).lastKnownLeader())
                .isEqualTo(1);
        drainAndCompare(kafka, 10); // the next check interval

        assertThat(kafka.snapshotInIterationOrder().partitions().get(0).leader())
                .isEqualTo(1);
    }

    @Test
    void severalRecoveringBrokersInterleaved_everyCap_matchesKafkaRunAfterRun() {
        ClusterSnapshot cluster = ImmediateLegacyBehaviourTest.mixedRecovery();
        for (int cap : new int[] {1, 7, 100, 250, 1000}) {
            drainAndCompare(KafkaControllerReference.load(cluster, cap, false), cap);
        }
        // 270 (broker 0) + 150 (broker 1) + 10 ("odd", leader shutting down) + 7 ("down", leaderless)
        // = 437 elections at 50 per run: 9 runs, the last one not capped.
        assertThat(drainAndCompare(KafkaControllerReference.load(cluster, 50, false), 50))
                .isEqualTo(9);
    }
}
