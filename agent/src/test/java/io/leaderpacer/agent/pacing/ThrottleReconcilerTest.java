package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.SteppedTime;
import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.NotActiveException;
import io.leaderpacer.agent.pacing.KafkaConfigModel.Fault;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hand-worked cases of the reconciler against a model of Kafka's config semantics, one per way a throttle could be
 * left behind or someone else's clobbered: a change the guard refuses, one Kafka refuses, one cut short by a kill, a
 * {@code *} that never landed or outlives its reason, a list edited while pacing edits it, a deleted topic, a look
 * larger than one request. The same cases run on real clusters in {@code CatchUpPacingClusterTest}.
 */
class ThrottleReconcilerTest {

    private static final ThrottleSide F = ThrottleSide.FOLLOWER;
    private static final Set<Integer> UP = Set.of(0, 1, 2);
    private static final ThrottleReconciler.Limits LIMITS = new ThrottleReconciler.Limits(24, 10, 10);

    private final KafkaConfigModel kafka = new KafkaConfigModel();
    /** The reconciler's pauses between read-backs step it instead of sleeping. */
    private final SteppedTime time = new SteppedTime();

    private final LedgerStore store = new InMemoryLedgerStore();
    private final AtomicBoolean deposed = new AtomicBoolean();
    private final ActionGuard guard = action -> {
        if (deposed.get()) {
            throw new NotActiveException("deposed; " + action + " not sent");
        }
    };

    private ThrottleReconciler instance() throws Exception {
        return instance(LIMITS);
    }

    private ThrottleReconciler instance(ThrottleReconciler.Limits limits) throws Exception {
        ThrottleLedger ledger = new ThrottleLedger(store);
        ledger.load();
        ThrottleReconciler r = new ThrottleReconciler(kafka, ledger, guard, limits, time);
        r.load();
        return r;
    }

    private static ThrottlePlan rate(int broker, long bytes) {
        return new ThrottlePlan(Map.of(broker, bytes), OptionalLong.empty(), Map.of());
    }

    private static ThrottlePlan entries(String topic, String value) {
        return new ThrottlePlan(
                Map.of(),
                OptionalLong.empty(),
                Map.of(
                        topic,
                        ThrottleLedger.sortedSet(ThrottledReplicas.parse(value).replicas())));
    }

    private String value(String resourceName, boolean topic, String key) {
        return kafka.values()
                .getOrDefault(
                        topic
                                ? KafkaConfigModel.topic(resourceName)
                                : (resourceName.isEmpty()
                                                ? BrokerScope.clusterDefault()
                                                : BrokerScope.broker(Integer.parseInt(resourceName)))
                                        .resource(),
                        Map.of())
                .get(key);
    }

    @Test
    void aRateChangeTheGuardRefuses_recordsNothing_andTheRateInPlaceIsStillRestored() throws Exception {
        ThrottleReconciler r = instance();
        r.reconcile(rate(2, 20_000_000), UP);
        Map<String, String> recorded = store.load();
        int requests = kafka.requests();
        deposed.set(true);
        assertThatThrownBy(() -> r.reconcile(rate(2, 30_000_000), UP)).isInstanceOf(NotActiveException.class);
        deposed.set(false);
        // The guard comes first: a refused change is neither recorded nor sent.
        assertThat(store.load()).as("the ledger after the refused change").isEqualTo(recorded);
        assertThat(kafka.requests()).as("requests after the refused change").isEqualTo(requests);

        ThrottleReconciler successor = instance();
        successor.restoreAll(UP);
        assertThat(value("2", false, F.rateKey()))
                .as("the 20 MB/s in place was still pacing's")
                .isNull();
        assertThat(successor.ownsNothing()).isTrue();
    }

    @Test
    void aRateChangeKafkaRefusesOrNeverConfirms_isStillPacingsToRestore() throws Exception {
        for (Fault f : List.of(Fault.REFUSED, Fault.UNCONFIRMED, Fault.CRASH_BEFORE, Fault.CRASH_AFTER)) {
            KafkaConfigModel k = new KafkaConfigModel();
            k.put(BrokerScope.broker(2).resource(), "leader.replication.throttled.rate", "1");
            LedgerStore s = new InMemoryLedgerStore();
            ThrottleLedger l = new ThrottleLedger(s);
            l.load();
            new ThrottleReconciler(k, l, ActionGuard.NONE, LIMITS, time).reconcile(rate(2, 20_000_000), UP);
            k.fault(f);
            try {
                new ThrottleReconciler(k, l, ActionGuard.NONE, LIMITS, time).reconcile(rate(2, 30_000_000), UP);
            } catch (KafkaConfigModel.Crash killed) {
                // the next instance goes on
            }
            ThrottleLedger next = new ThrottleLedger(s);
            next.load();
            ThrottleReconciler successor = new ThrottleReconciler(k, next, ActionGuard.NONE, LIMITS, time);
            successor.restoreAll(UP);
            assertThat(k.values())
                    .as(f.name())
                    .isEqualTo(
                            Map.of(BrokerScope.broker(2).resource(), Map.of("leader.replication.throttled.rate", "1")));
            assertThat(successor.ownsNothing()).as(f.name()).isTrue();
        }
    }

    @Test
    void aStarThatNeverLanded_leavesPacingsEntriesOwned_andTheListIsRestoredExactly() throws Exception {
        kafka.put(KafkaConfigModel.topic("t"), F.replicasKey(), "9:0, 8:0");
        ThrottleReconciler r = instance();
        r.reconcile(entries("t", "0:2"), UP);
        assertThat(value("t", true, F.replicasKey())).isEqualTo("9:0, 8:0,0:2");
        kafka.fault(Fault.REFUSED);
        r.reconcile(entries("t", "0:2,1:2,2:2,3:2,4:2"), UP);
        assertThat(value("t", true, F.replicasKey())).as("the * was refused").isEqualTo("9:0, 8:0,0:2");

        ThrottleReconciler successor = instance();
        successor.restoreAll(UP);
        assertThat(value("t", true, F.replicasKey())).isEqualTo("9:0, 8:0");
        assertThat(successor.ownsNothing()).isTrue();
    }

    @Test
    void aStarWhoseFirstReadBackLags_isSeenByAReadAgain_soSomeoneChangingTheListLaterKeepsTheirs() throws Exception {
        ThrottleReconciler r = instance();
        ThrottlePlan tooLong = entries("t", "0:2,1:2,2:2,3:2,4:2,5:2,6:2");
        // The broker that answers the read right after the * request has not caught up with it yet.
        kafka.beforeNextRequest(kafka::staleNextRead);
        r.reconcile(tooLong, UP);
        assertThat(value("t", true, F.replicasKey())).isEqualTo("*");
        kafka.put(KafkaConfigModel.topic("t"), F.replicasKey(), "1:1");

        ThrottleReconciler.Outcome o = r.reconcile(tooLong, UP);

        assertThat(o.notes())
                .contains("topic t: someone changed the follower list pacing set to * (now 1:1): that list"
                        + " is theirs");
        r.restoreAll(UP);
        assertThat(value("t", true, F.replicasKey())).as("their list, kept").isEqualTo("1:1");
        assertThat(r.ownsNothing()).isTrue();
    }

    @Test
    void aRateNoReadShowsEvenWhenReadAgain_isReadAFixedNumberOfTimes_andStaysPacingsToRestore() throws Exception {
        ThrottleReconciler r = instance();
        kafka.beforeNextRequest(() -> kafka.staleNextReads(100));
        int readsBefore = kafka.reads();

        r.reconcile(rate(2, 20_000_000), UP);

        assertThat(kafka.reads() - readsBefore)
                .as("the look's read, the read-back, then " + ThrottleWriter.READ_BACKS_AGAIN + " reads again")
                .isEqualTo(2 + ThrottleWriter.READ_BACKS_AGAIN);
        kafka.staleNextReads(0);
        r.restoreAll(UP);
        assertThat(value("2", false, F.rateKey())).isNull();
        assertThat(r.ownsNothing()).isTrue();
    }

    @Test
    void aStarOfPacings_whenAClusterDefaultRateComesInForce_becomesTheEntriesThatFit() throws Exception {
        kafka.put(KafkaConfigModel.topic("t"), F.replicasKey(), "9:0");
        ThrottleReconciler r = instance();
        r.reconcile(
                new ThrottlePlan(
                        Map.of(2, 1_000_000L),
                        OptionalLong.empty(),
                        Map.of(
                                "t",
                                ThrottleLedger.sortedSet(ThrottledReplicas.parse("0:2,1:2,2:2,3:2,4:2,5:2")
                                        .replicas()))),
                UP);
        assertThat(value("t", true, F.replicasKey())).isEqualTo("*");
        // Broker 2 goes down again: its rate must be the cluster default, under which * would throttle every
        // broker's replicas of t.
        r.reconcile(
                new ThrottlePlan(
                        Map.of(),
                        OptionalLong.of(1_000_000L),
                        Map.of(
                                "t",
                                ThrottleLedger.sortedSet(ThrottledReplicas.parse("0:2,1:2,2:2,3:2,4:2,5:2")
                                        .replicas()))),
                Set.of(0, 1));
        String list = value("t", true, F.replicasKey());
        assertThat(list).isNotEqualTo("*").startsWith("9:0,0:2");
        assertThat(list.length()).isLessThanOrEqualTo(LIMITS.maxListChars());

        kafka.up(UP);
        instance().restoreAll(UP);
        assertThat(value("t", true, F.replicasKey())).isEqualTo("9:0");
        assertThat(value("", false, F.rateKey())).isNull();
    }

    @Test
    void aLookThatAddsAndRemoves_appendsThenSubtracts_keepingAnEntryAddedMeanwhile() throws Exception {
        ThrottleReconciler r = instance();
        r.reconcile(entries("t", "0:2,1:2"), UP);
        kafka.beforeNextRequest(() ->
                kafka.put(KafkaConfigModel.topic("t"), F.replicasKey(), value("t", true, F.replicasKey()) + ",7:0"));
        r.reconcile(entries("t", "1:2,2:2"), UP);

        assertThat(kafka.sent()).extracting(KafkaConfigModel::type).doesNotContain(AlterConfigOp.OpType.SET);
        assertThat(value("t", true, F.replicasKey())).isEqualTo("1:2,7:0,2:2");
        r.restoreAll(UP);
        assertThat(value("t", true, F.replicasKey()))
                .as("someone else's entry stays theirs")
                .isEqualTo("7:0");
    }

    @Test
    void anEntryWantedAgainWhileItsRemovalLooksPending_isAppendedOnce_notOnEveryLook() throws Exception {
        ThrottleReconciler r = instance();
        r.reconcile(entries("t", "0:2,1:2"), UP);
        // 1:2 is subtracted, and the reads that confirm it all lag: its removal looks pending.
        kafka.beforeNextRequest(() -> kafka.staleNextReads(1 + ThrottleWriter.READ_BACKS_AGAIN));
        r.reconcile(entries("t", "0:2"), UP);
        // Shown again (someone added the same entry back) and wanted again: appended, so it is there whatever the
        // read, and no longer a removal pending.
        kafka.put(KafkaConfigModel.topic("t"), F.replicasKey(), "0:2,1:2");
        r.reconcile(entries("t", "0:2,1:2"), UP);
        assertThat(value("t", true, F.replicasKey())).isEqualTo("0:2,1:2");
        int requests = kafka.requests();

        r.reconcile(entries("t", "0:2,1:2"), UP);
        r.reconcile(entries("t", "0:2,1:2"), UP);

        assertThat(kafka.requests()).as("nothing left to change").isEqualTo(requests);
        r.restoreAll(UP);
        assertThat(value("t", true, F.replicasKey())).isNull();
    }

    @Test
    void aDeletedTopic_forgetsWhatPacingHadOnIt_andEverythingElseIsStillRestored() throws Exception {
        ThrottleReconciler r = instance();
        r.reconcile(
                new ThrottlePlan(
                        Map.of(2, 1_000_000L),
                        OptionalLong.empty(),
                        Map.of("a", Set.of(new Replica(0, 2)), "gone", Set.of(new Replica(0, 2)))),
                UP);
        kafka.deleteTopic("gone");

        ThrottleReconciler.Outcome o = r.restoreAll(UP);
        assertThat(o.notes()).contains("topic gone no longer exists: pacing's follower entries on it went with it");
        assertThat(o.failures()).isEmpty();
        assertThat(kafka.values()).isEmpty();
        assertThat(r.ownsNothing()).isTrue();
    }

    @Test
    void aLookLargerThanARequest_isSentInRequestsOfTheLimit_andAKillBetweenThemLeavesNothingUnowned() throws Exception {
        ThrottleReconciler.Limits three = new ThrottleReconciler.Limits(24, 3, 10);
        Map<String, Set<Replica>> many = new TreeMap<>();
        for (int t = 0; t < 10; t++) {
            many.put("t" + t, Set.of(new Replica(0, 2)));
        }
        kafka.fault(Fault.NONE);
        kafka.fault(Fault.CRASH_AFTER);
        assertThatThrownBy(() -> instance(three)
                        .reconcile(new ThrottlePlan(Map.of(2, 1_000_000L), OptionalLong.empty(), many), UP))
                .isInstanceOf(KafkaConfigModel.Crash.class);
        assertThat(kafka.largestRequest()).isEqualTo(3);

        ThrottleReconciler successor = instance(three);
        successor.reconcile(new ThrottlePlan(Map.of(2, 1_000_000L), OptionalLong.empty(), many), UP);
        assertThat(kafka.values()).hasSize(11);
        successor.restoreAll(UP);
        assertThat(kafka.values()).isEmpty();
        assertThat(successor.ownsNothing()).isTrue();
        assertThat(kafka.largestRequest()).isEqualTo(3);
    }

    @Test
    void aLeaderListTooLongForAConfigValue_listsTheEntriesThatFit_neverStar() throws Exception {
        ThrottleReconciler r = instance();
        Set<Replica> many = ThrottleLedger.sortedSet(List.of(
                new Replica(10, 0),
                new Replica(11, 0),
                new Replica(12, 0),
                new Replica(13, 0),
                new Replica(14, 0),
                new Replica(15, 0)));
        ThrottlePlan plan = new ThrottlePlan(
                Map.of(1, 1_000_000L),
                OptionalLong.empty(),
                Map.of(),
                Map.of(),
                new ThrottlePlan.LeaderSide(Map.of(0, 4_000_000L), Map.of("t", many)));

        ThrottleReconciler.Outcome o = r.reconcile(plan, UP);

        String listed = value("t", true, ThrottleSide.LEADER.replicasKey());
        assertThat(listed).isNotEqualTo("*").hasSizeLessThanOrEqualTo(24);
        assertThat(ThrottledReplicas.parse(listed).replicas()).isNotEmpty().isSubsetOf(many);
        assertThat(o.notes()).anyMatch(n -> n.contains("entries listed"));
        r.restoreAll(UP);
        assertThat(kafka.values()).isEmpty();
    }

    @Test
    void theLeaderSide_isPacingsOwnLedger_usesSomeoneElsesLeaderRate_andIsRestoredExactly() throws Exception {
        kafka.put(BrokerScope.broker(2).resource(), ThrottleSide.LEADER.rateKey(), "5000000");
        kafka.put(KafkaConfigModel.topic("t"), ThrottleSide.LEADER.replicasKey(), "9:2, 8:0");
        ThrottleReconciler r = instance();
        ThrottlePlan first = new ThrottlePlan(
                Map.of(1, 1_000_000L),
                OptionalLong.empty(),
                Map.of("t", Set.of(new Replica(3, 1))),
                Map.of(),
                new ThrottlePlan.LeaderSide(
                        Map.of(0, 4_000_000L, 2, 4_000_000L),
                        Map.of("t", ThrottleLedger.sortedSet(List.of(new Replica(0, 0), new Replica(4, 2))))));
        ThrottleReconciler.Outcome o = r.reconcile(first, UP);

        assertThat(o.notes())
                .contains("broker 2's leader rate is 4.8 MiB/s, set by someone else: pacing uses it and"
                        + " does not change it");
        assertThat(o.foreignLeaderRates())
                .as("for the next plan: broker 2's rate is someone else's")
                .containsExactly(2);
        assertThat(value("0", false, ThrottleSide.LEADER.rateKey())).isEqualTo("4000000");
        assertThat(value("2", false, ThrottleSide.LEADER.rateKey())).isEqualTo("5000000");
        assertThat(value("t", true, ThrottleSide.LEADER.replicasKey())).isEqualTo("9:2, 8:0,0:0,4:2");
        assertThat(value("t", true, F.replicasKey())).isEqualTo("3:1");

        ThrottleReconciler successor = instance();
        successor.restoreAll(UP);
        assertThat(successor.ownsNothing()).isTrue();
        assertThat(kafka.values())
                .isEqualTo(Map.of(
                        BrokerScope.broker(2).resource(), Map.of(ThrottleSide.LEADER.rateKey(), "5000000"),
                        KafkaConfigModel.topic("t"), Map.of(ThrottleSide.LEADER.replicasKey(), "9:2, 8:0")));
    }

    @Test
    void someoneElsesClusterDefaultRate_pacingSetsNoRateOfItsOwnOverIt_andSaysSo() throws Exception {
        kafka.put(BrokerScope.clusterDefault().resource(), F.rateKey(), "6291456");
        ThrottleReconciler r = instance();

        ThrottleReconciler.Outcome o = r.reconcile(rate(1, 3_000_000), UP);

        assertThat(value("1", false, F.rateKey()))
                .as("no per-broker rate over theirs")
                .isNull();
        assertThat(o.notes())
                .contains("the cluster-default follower rate is 6.0 MiB/s, set by someone else, and in force on broker"
                        + " 1: pacing uses it and sets no rate of its own there");
        assertThat(o.quotas().foreignFollowerRate(1)).hasValue(6_291_456);
        assertThat(r.ownsNothing()).isTrue();
    }

    @Test
    void aRateOfPacingsOnABroker_isRestored_whenSomeoneElseSetsAClusterDefault() throws Exception {
        ThrottleReconciler r = instance();
        r.reconcile(rate(1, 3_000_000), UP);
        assertThat(value("1", false, F.rateKey())).isEqualTo("3000000");

        kafka.put(BrokerScope.clusterDefault().resource(), F.rateKey(), "6291456");
        r.reconcile(rate(1, 3_000_000), UP);

        assertThat(value("1", false, F.rateKey()))
                .as("theirs is in force on broker 1 again")
                .isNull();
        assertThat(value("", false, F.rateKey())).isEqualTo("6291456");
        assertThat(r.ownsNothing()).isTrue();
    }

    @Test
    void aRateOfPacingsNearTheOneWanted_isKept_aStepAwayIsSent() throws Exception {
        ThrottleReconciler r = instance();
        long mib = 1L << 20;
        r.reconcile(withStep(Map.of(1, 20 * mib), 5 * mib), UP);
        int requests = kafka.requests();

        // 3 % more (the in-sync bytes it carries moved a little): kept, nothing sent.
        ThrottleReconciler.Outcome near = r.reconcile(withStep(Map.of(1, 20 * mib + 600_000), 5 * mib), UP);
        assertThat(near.changes()).isEmpty();
        assertThat(kafka.requests()).isEqualTo(requests);
        assertThat(value("1", false, F.rateKey())).isEqualTo(Long.toString(20 * mib));
        // One step of the rate decided (the min rate, 5 MiB/s) is never swallowed.
        r.reconcile(withStep(Map.of(1, 25 * mib), 5 * mib), UP);
        assertThat(value("1", false, F.rateKey())).isEqualTo(Long.toString(25 * mib));
    }

    private static ThrottlePlan withStep(Map<Integer, Long> rates, long step) {
        return new ThrottlePlan(
                rates,
                OptionalLong.empty(),
                Map.of(),
                Map.of(),
                ThrottlePlan.LeaderSide.NONE,
                Map.of(),
                List.of(),
                step);
    }

    @Test
    void someoneElsesLeaderEntries_areReadAsTheirs_notPacings_forTheLeadersTheyName() throws Exception {
        kafka.put(KafkaConfigModel.topic("moving"), ThrottleSide.LEADER.replicasKey(), "0:0,1:2");
        kafka.put(KafkaConfigModel.topic("t"), ThrottleSide.LEADER.replicasKey(), "4:1");
        ThrottleReconciler r = instance();
        ThrottlePlan plan = new ThrottlePlan(
                Map.of(1, 1_000_000L),
                OptionalLong.empty(),
                Map.of(),
                Map.of(),
                new ThrottlePlan.LeaderSide(Map.of(2, 4_000_000L), Map.of("t", Set.of(new Replica(0, 2)))));

        ThrottleReconciler.Outcome o = r.reconcile(plan, UP, Set.of("moving", "t"), Set.of("moving", "t"));

        assertThat(o.quotas().foreignLeaderLists())
                .containsOnly(
                        Map.entry("moving", ThrottledReplicas.parse("0:0,1:2")),
                        Map.entry("t", ThrottledReplicas.parse("4:1")));
        assertThat(o.quotas().leaderListsRead()).isTrue();
    }

    @Test
    void aTopicTheLookListsButABrokerDoesNotKnowYet_isNotTakenAsDeleted_andItsRecordsStay() throws Exception {
        ThrottleReconciler r = instance();
        r.reconcile(
                new ThrottlePlan(Map.of(2, 1_000_000L), OptionalLong.empty(), Map.of("new", Set.of(new Replica(0, 2)))),
                UP);
        // The broker asked answers that the topic does not exist (it lags its creation); the look's own read lists it.
        kafka.hideTopic("new");

        ThrottleReconciler.Outcome o = r.restoreAll(UP, Set.of("new"));
        assertThat(o.notes()).noneMatch(n -> n.contains("no longer exists"));
        assertThat(r.ownsNothing()).as("its entry is still pacing's to restore").isFalse();

        kafka.showTopic("new");
        r.restoreAll(UP, Set.of("new"));
        assertThat(kafka.values()).isEmpty();
        assertThat(r.ownsNothing()).isTrue();
    }
}
