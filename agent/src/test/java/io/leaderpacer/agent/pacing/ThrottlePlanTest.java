package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.core.CatchUpQuota;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.BrokerSignals;
import io.leaderpacer.engine.pacing.CatchUpState;
import io.leaderpacer.engine.pacing.PacingDecision;
import io.leaderpacer.engine.pacing.PacingMemory;
import io.leaderpacer.engine.pacing.PacingPhase;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: what a pacing decision asks Kafka to throttle. */
class ThrottlePlanTest {

    private static final String CANARY = "_leader-pacer-canary";
    private static final long MIB = 1L << 20;

    private static PartitionState behind(String topic, int partition) {
        return PartitionState.of(topic, partition, new int[] {0, 1, 2}, new int[] {0, 2}, 0);
    }

    /** Broker 1 paced at 20 MiB/s, out of sync on two load partitions and one canary partition. */
    private static RecoveryObservation brokerOneBehind(Set<Integer> active) {
        return new RecoveryObservation(
                List.of(), Map.of(1, List.of(behind("load", 0), behind("load", 3), behind(CANARY, 2))), active);
    }

    /** Pacing with this unthrottled lag, every replica at the pacing rate. */
    private static CatchUpPacing lag(long bytes) {
        return PacerConfig.fromMap(Map.of(
                        "leader.imbalance.catch.up.pacing",
                        "static",
                        "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
                        Long.toString(bytes)))
                .pacing();
    }

    private static PacingDecision pacedAt20MiB() {
        return new PacingDecision(
                0,
                List.of(new BrokerPacing(
                        1, PacingPhase.PACED, OptionalLong.of(20L << 20), "static", BrokerPacing.Progress.UNKNOWN)),
                PacingMemory.empty());
    }

    @Test
    void pacedBrokerThatIsUp_getsItsOwnRate_andItsOutOfSyncReplicasListed_butNeverTheCanarys() {
        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), brokerOneBehind(Set.of(0, 1, 2)), Set.of(CANARY), lag(MIB));

        assertThat(plan.brokerRates()).containsExactly(Map.entry(1, 20L << 20));
        assertThat(plan.defaultRate()).isEmpty();
        assertThat(plan.entries()).containsOnlyKeys("load");
        assertThat(plan.entries().get("load"))
                .containsExactly(new ThrottledReplicas.Replica(0, 1), new ThrottledReplicas.Replica(3, 1));
    }

    /** Broker 1 in its caught-up grace at 20 MiB/s. */
    private static PacingDecision gracedAt20MiB() {
        return new PacingDecision(
                0,
                List.of(new BrokerPacing(
                        1,
                        PacingPhase.CAUGHT_UP_GRACE,
                        OptionalLong.of(20L << 20),
                        "back within replica.lag.time.max.ms",
                        BrokerPacing.Progress.UNKNOWN)),
                PacingMemory.empty());
    }

    /** Broker 1 up and out of sync on load-0 (written: its leader grew), load-3 (no writes) and load-5 (not measured). */
    private static RecoveryObservation writtenAndNot() {
        return new RecoveryObservation(
                List.of(),
                Map.of(1, List.of(behind("load", 0), behind("load", 3), behind("load", 5))),
                Map.of(),
                Set.of(0, 1, 2),
                Map.of(0, Map.of(new TopicPartition("load", 0), 1.0 * MIB, new TopicPartition("load", 3), 0.0)));
    }

    @Test
    void inItsCaughtUpGrace_onlyReplicasOfPartitionsKnownToTakeNoWritesAreListed() {
        ThrottlePlan plan = ThrottlePlan.of(gracedAt20MiB(), writtenAndNot(), Set.of(), lag(0));

        assertThat(plan.entries().get("load"))
                .as("load-0 takes writes, load-5's are not measured yet: their writes would wait for a throttled fetch")
                .containsExactly(new ThrottledReplicas.Replica(3, 1));
        assertThat(plan.brokerRates()).containsExactly(Map.entry(1, 20L << 20));
    }

    @Test
    void inItsCaughtUpGrace_withNothingKnownToTakeNoWrites_noRateIsSet() {
        RecoveryObservation firstLook = new RecoveryObservation(
                List.of(), Map.of(1, List.of(behind("load", 0), behind("load", 3))), Set.of(0, 1, 2));

        ThrottlePlan plan = ThrottlePlan.of(gracedAt20MiB(), firstLook, Set.of(), lag(0));

        assertThat(plan.entries()).isEmpty();
        assertThat(plan.brokerRates())
                .as("a rate would throttle only lists someone else set")
                .isEmpty();
        assertThat(plan.defaultRate()).isEmpty();
    }

    @Test
    void pacedBrokerThatIsDown_isCoveredByTheClusterDefault() {
        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), brokerOneBehind(Set.of(0, 2)), Set.of(CANARY), lag(MIB));

        assertThat(plan.brokerRates()).isEmpty();
        assertThat(plan.defaultRate()).hasValue(20L << 20);
    }

    @Test
    void withoutACanary_everyOutOfSyncReplicaIsListed() {
        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), brokerOneBehind(Set.of(0, 1, 2)), Set.of(), lag(MIB));

        assertThat(plan.entries()).containsOnlyKeys("load", CANARY);
    }

    /** Broker 1 up, load-0 known 4 KiB behind, load-3 known 5 MiB behind, the canary's partition not known. */
    private static RecoveryObservation brokerOneWithKnownDistances() {
        return new RecoveryObservation(
                List.of(),
                Map.of(1, List.of(behind("load", 0), behind("load", 3), behind("load", 5))),
                Map.of(1, Map.of(new TopicPartition("load", 0), 4096L, new TopicPartition("load", 3), 5 * MIB)),
                Set.of(0, 1, 2));
    }

    @Test
    void replicaKnownWithinAFetchOfItsLeader_isLeftOut_whileTheFarOneAndTheOneNotKnownAreListed() {
        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), brokerOneWithKnownDistances(), Set.of(), lag(MIB));

        assertThat(plan.entries().get("load"))
                .containsExactly(new ThrottledReplicas.Replica(3, 1), new ThrottledReplicas.Replica(5, 1));
        assertThat(plan.leftOut()).containsExactly(Map.entry(1, 1));
        assertThat(plan.notes(MIB))
                .containsExactly("broker 1: 1 out-of-sync replica under 1.0 MiB behind its leader"
                        + " left unthrottled (leader.imbalance.catch.up.pacing.unthrottled.lag.bytes)");
    }

    @Test
    void noUnthrottledLag_listsEveryOutOfSyncReplica_asBefore() {
        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), brokerOneWithKnownDistances(), Set.of(), lag(0));

        assertThat(plan.entries().get("load"))
                .containsExactly(
                        new ThrottledReplicas.Replica(0, 1),
                        new ThrottledReplicas.Replica(3, 1),
                        new ThrottledReplicas.Replica(5, 1));
        assertThat(plan.leftOut()).isEmpty();
        assertThat(plan.notes(0)).isEmpty();
    }

    @Test
    void replicaExactlyAtTheLimit_isListed() {
        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), brokerOneWithKnownDistances(), Set.of(), lag(4096));

        assertThat(plan.entries().get("load")).contains(new ThrottledReplicas.Replica(0, 1));
    }

    @Test
    void preferredFirst_putsTheReplicasItIsPreferredFor_onTheLeaderSideOfTheirLeaders_andTheRestAtTheMinRate() {
        CatchUpPacing first = PacerConfig.fromMap(Map.of(
                        "leader.imbalance.catch.up.pacing", "static",
                        "leader.imbalance.catch.up.pacing.min.rate.bytes", Long.toString(5 * MIB),
                        "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes", "0",
                        "leader.imbalance.catch.up.pacing.preferred.first", "true"))
                .pacing();
        // load-0 and load-4 prefer broker 1 (led by 0 and 2); load-3 prefers broker 0.
        RecoveryObservation seen = new RecoveryObservation(
                List.of(),
                Map.of(
                        1,
                        List.of(
                                PartitionState.of("load", 0, new int[] {1, 0, 2}, new int[] {0, 2}, 0),
                                PartitionState.of("load", 4, new int[] {1, 2, 0}, new int[] {2, 0}, 2),
                                behind("load", 3))),
                Set.of(0, 1, 2));

        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), seen, Set.of(), first);

        assertThat(plan.leader().entries())
                .containsOnly(Map.entry(
                        "load", Set.of(new ThrottledReplicas.Replica(0, 0), new ThrottledReplicas.Replica(4, 2))));
        assertThat(plan.leader().rates())
                .as("each leader sends its half of the pacing rate")
                .containsOnly(Map.entry(0, 10L << 20), Map.entry(2, 10L << 20));
        assertThat(plan.entries().get("load")).containsExactly(new ThrottledReplicas.Replica(3, 1));
        assertThat(plan.brokerRates()).as("the rest waits at the min rate").containsExactly(Map.entry(1, 5 * MIB));

        RecoveryObservation preferredDone =
                new RecoveryObservation(List.of(), Map.of(1, List.of(behind("load", 3))), Set.of(0, 1, 2));
        ThrottlePlan after = ThrottlePlan.of(pacedAt20MiB(), preferredDone, Set.of(), first);
        assertThat(after.leader().entries()).isEmpty();
        assertThat(after.brokerRates())
                .as("then the rest gets the pacing rate")
                .containsExactly(Map.entry(1, 20L << 20));
    }

    private static CatchUpPacing preferredFirst() {
        return PacerConfig.fromMap(Map.of(
                        "leader.imbalance.catch.up.pacing", "static",
                        "leader.imbalance.catch.up.pacing.min.rate.bytes", Long.toString(5 * MIB),
                        "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes", "0",
                        "leader.imbalance.catch.up.pacing.preferred.first", "true"))
                .pacing();
    }

    @Test
    void preferredFirst_partitionWithAnotherFollowerOutOfItsIsr_staysOnTheFollowerSide() {
        // load-0 prefers broker 1, and broker 2 is out of its ISR too: a leader entry would throttle broker 2 as well.
        PartitionState twoOut = PartitionState.of("load", 0, new int[] {1, 0, 2}, new int[] {0}, 0);
        RecoveryObservation seen =
                new RecoveryObservation(List.of(), Map.of(1, List.of(twoOut), 2, List.of(twoOut)), Set.of(0, 1, 2));

        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), seen, Set.of(), preferredFirst());

        assertThat(plan.leader().entries()).isEmpty();
        assertThat(plan.leader().rates()).isEmpty();
        assertThat(plan.entries().get("load")).containsExactly(new ThrottledReplicas.Replica(0, 1));
        assertThat(plan.brokerRates())
                .as("nothing goes first: the pacing rate")
                .containsExactly(Map.entry(1, 20L << 20));
        assertThat(plan.leader().inForce())
                .as("leader rates are still read, to know whose they are")
                .isTrue();
    }

    @Test
    void preferredFirst_leaderWithSomeoneElsesLeaderRate_itsPartitionsStayOnTheFollowerSide() {
        RecoveryObservation seen = new RecoveryObservation(
                List.of(),
                Map.of(
                        1,
                        List.of(
                                PartitionState.of("load", 0, new int[] {1, 0, 2}, new int[] {0, 2}, 0),
                                PartitionState.of("load", 4, new int[] {1, 2, 0}, new int[] {2, 0}, 2))),
                Set.of(0, 1, 2));

        ThrottlePlan plan = ThrottlePlan.of(
                pacedAt20MiB(),
                seen,
                Set.of(),
                preferredFirst(),
                Map.of(2, "its leader rate (4.8 MiB/s) is someone else's"));

        assertThat(plan.leader().entries())
                .containsOnly(Map.entry("load", Set.of(new ThrottledReplicas.Replica(0, 0))));
        assertThat(plan.entries().get("load")).containsExactly(new ThrottledReplicas.Replica(4, 1));
        assertThat(plan.leader().rates())
                .as("the one leader pacing may set sends its half: bytes behind not known, equal shares")
                .containsOnly(Map.entry(0, 10L << 20));
        assertThat(plan.brokerRates())
                .as("the preferred replica on the follower side goes first too: the other half")
                .containsExactly(Map.entry(1, 10L << 20));
    }

    /** Broker 1 paced at 20 MiB/s with its preferred replicas first; broker 2's leader rate is someone else's. */
    private static ThrottlePlan underSomeoneElsesRateOnBrokerTwo(RecoveryObservation seen) {
        return ThrottlePlan.of(
                pacedAt20MiB(),
                seen,
                Set.of(),
                preferredFirst(),
                Map.of(2, "its leader rate (4.8 MiB/s) is someone else's"));
    }

    /** load-0 (led by 0) and load-4 (led by 2) prefer broker 1, and are this far behind; then {@code others}. */
    private static RecoveryObservation preferredBehind(long zero, long four, PartitionState... others) {
        List<PartitionState> out = new ArrayList<>(List.of(
                PartitionState.of("load", 0, new int[] {1, 0, 2}, new int[] {0, 2}, 0),
                PartitionState.of("load", 4, new int[] {1, 2, 0}, new int[] {2, 0}, 2)));
        Map<TopicPartition, Long> behind =
                new HashMap<>(Map.of(new TopicPartition("load", 0), zero, new TopicPartition("load", 4), four));
        for (PartitionState p : others) {
            out.add(p);
            behind.put(new TopicPartition(p.id().topic(), p.id().partition()), 500 * MIB);
        }
        return new RecoveryObservation(List.of(), Map.of(1, out), Map.of(1, behind), Set.of(0, 1, 2));
    }

    @Test
    void preferredFirst_somePreferredReplicasOnTheFollowerSide_theFollowerRateCarriesTheirShare_byBytesBehind() {
        // load-0 goes on the leader side of broker 0; load-4, under someone else's rate, on the follower side, with
        // load-3, which broker 1 is not preferred for (500 MiB behind).
        ThrottlePlan plan = underSomeoneElsesRateOnBrokerTwo(preferredBehind(100 * MIB, 300 * MIB, behind("load", 3)));

        // 20 MiB/s over the preferred bytes behind, 100 : 300; the non-preferred replica's count for nothing.
        assertThat(plan.leader().rates()).containsOnly(Map.entry(0, 5L << 20));
        assertThat(plan.entries().get("load"))
                .containsExactly(new ThrottledReplicas.Replica(3, 1), new ThrottledReplicas.Replica(4, 1));
        assertThat(plan.brokerRates())
                .as("not the min rate: load-4 is preferred")
                .containsExactly(Map.entry(1, 15L << 20));
    }

    @Test
    void preferredFirst_aFollowerSideShareUnderTheMinRate_theMinRate() {
        ThrottlePlan plan = underSomeoneElsesRateOnBrokerTwo(preferredBehind(390 * MIB, 10 * MIB));

        assertThat(plan.leader().rates()).containsOnly(Map.entry(0, (long) (19.5 * MIB)));
        assertThat(plan.brokerRates())
                .as("a share of 0.5 MiB/s: the min rate, as the others'")
                .containsExactly(Map.entry(1, 5 * MIB));
    }

    @Test
    void preferredFirst_distancesKnown_eachLeaderSendsItsShareInProportionToBytesBehind() {
        PartitionState ledByZero = PartitionState.of("load", 0, new int[] {1, 0, 2}, new int[] {0, 2}, 0);
        PartitionState ledByTwo = PartitionState.of("load", 4, new int[] {1, 2, 0}, new int[] {2, 0}, 2);
        RecoveryObservation seen = new RecoveryObservation(
                List.of(),
                Map.of(1, List.of(ledByZero, ledByTwo)),
                Map.of(1, Map.of(new TopicPartition("load", 0), 300 * MIB, new TopicPartition("load", 4), 100 * MIB)),
                Set.of(0, 1, 2));

        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), seen, Set.of(), preferredFirst());

        assertThat(plan.leader().rates()).containsOnly(Map.entry(0, 15L << 20), Map.entry(2, 5L << 20));
    }

    /** Broker 1 paced at 20 MiB/s with its preferred replicas first, load-0 led by 0 and load-4 by 2, each 3 MiB/s in. */
    private static RecoveryObservation preferredUnderLoad(double chargedOnTheFollowerMib) {
        PartitionState ledByZero = PartitionState.of("load", 0, new int[] {1, 0, 2}, new int[] {0, 2}, 0);
        PartitionState ledByTwo = PartitionState.of("load", 4, new int[] {1, 2, 0}, new int[] {2, 0}, 2);
        TopicPartition zero = new TopicPartition("load", 0);
        TopicPartition four = new TopicPartition("load", 4);
        return new RecoveryObservation(
                List.of(new BrokerSignals(
                        1,
                        CatchUpState.CATCHING_UP,
                        OptionalLong.of(400 * MIB),
                        OptionalDouble.empty(),
                        BrokerSignals.Flow.of(20 * MIB, 6 * MIB, chargedOnTheFollowerMib * MIB))),
                Map.of(1, List.of(ledByZero, ledByTwo)),
                Map.of(1, Map.of(zero, 300 * MIB, four, 100 * MIB)),
                Set.of(0, 1, 2),
                Map.of(0, Map.of(zero, 3.0 * MIB), 2, Map.of(four, 3.0 * MIB)));
    }

    @Test
    void preferredFirst_underProduceLoad_eachLeaderRateCarriesTheInSyncBytesItsFollowersFetch_ontoItsShare() {
        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), preferredUnderLoad(0), Set.of(), preferredFirst());

        // 20 MiB/s decided: each leader first gets the 3 MiB/s flowing into the partition it sends (6 in all), then the
        // other 14 by bytes behind (300 : 100): 3 + 10.5 and 3 + 3.5. On top, what its one in-sync follower fetches of
        // the same partition, 3 MiB/s, which Kafka counts on the same leader quota.
        assertThat(plan.leader().rates())
                .containsOnly(Map.entry(0, (long) (16.5 * MIB)), Map.entry(2, (long) (9.5 * MIB)));
        assertThat(plan.quotas().get(1)).isEqualTo(new CatchUpQuota(20 * MIB, 5 * MIB + 26 * MIB, 6 * MIB));
    }

    @Test
    void followerRate_carriesTheInSyncBytesKafkaCountsOnTheBrokersQuota() {
        RecoveryObservation seen = preferredUnderLoad(4);
        ThrottlePlan plan = ThrottlePlan.of(pacedAt20MiB(), seen, Set.of(), lag(0));

        assertThat(plan.brokerRates()).containsExactly(Map.entry(1, 24 * MIB));
        assertThat(plan.quotas().get(1)).isEqualTo(new CatchUpQuota(20 * MIB, 24 * MIB, 4 * MIB));
        assertThat(plan.leader().rates()).isEmpty();
    }

    @Test
    void preferredFirst_aLeaderSomeoneElsesEntriesName_staysOnTheFollowerSide_andTheNoteSaysWhy() {
        ThrottlePlan plan = ThrottlePlan.of(
                pacedAt20MiB(),
                preferredUnderLoad(0),
                Set.of(),
                preferredFirst(),
                Map.of(0, "someone else's leader entries on topic moving name it"));

        assertThat(plan.leader().rates()).containsOnlyKeys(2);
        assertThat(plan.entries().get("load")).containsExactly(new ThrottledReplicas.Replica(0, 1));
        assertThat(plan.notes(0))
                .containsExactly(
                        "broker 1's preferred replicas led by broker 0 catch up on the follower side: broker 0's"
                                + " leader quota is used by someone else (someone else's leader entries on topic moving name"
                                + " it), which pacing does not set or share");
    }

    @Test
    void shares_underLoad_eachLeaderFirstGetsItsInflow_thenTheRestByBytesBehind() {
        // A replica 1 byte behind with 2 MB/s flowing in still gets its 2 MB/s: without it, it never catches up.
        assertThat(ThrottlePlan.shares(10_000_000, Map.of(0, 1L, 2, 999_999L), Map.of(0, 2e6), true))
                .containsOnly(Map.entry(0, 2_000_008L), Map.entry(2, 7_999_992L));
        // Inflows over the rate: the rate split in their proportion (the stall detector raises it).
        assertThat(ThrottlePlan.shares(3_000_000, Map.of(0, 5L, 2, 5L), Map.of(0, 3e6, 2, 1e6), true))
                .containsOnly(Map.entry(0, 2_250_000L), Map.entry(2, 750_000L));
    }

    @Test
    void shares_noneBehindOrUnknown_splitEqually_neverUnderOneBytePerSecond() {
        assertThat(ThrottlePlan.shares(10, Map.of(0, 0L, 2, 0L), true))
                .containsOnly(Map.entry(0, 5L), Map.entry(2, 5L));
        assertThat(ThrottlePlan.shares(9, Map.of(0, 7L, 2, 2L), false))
                .containsOnly(Map.entry(0, 4L), Map.entry(2, 4L));
        assertThat(ThrottlePlan.shares(10, Map.of(0, 1_000_000L, 2, 1L), true))
                .containsOnly(Map.entry(0, 9L), Map.entry(2, 1L));
    }
}
