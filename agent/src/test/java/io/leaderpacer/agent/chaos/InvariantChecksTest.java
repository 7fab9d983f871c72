package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.core.RunTimings;
import io.leaderpacer.agent.reorder.OrderRecord;
import io.leaderpacer.agent.reorder.ReorderReport;
import io.leaderpacer.agent.reorder.ReorderStatus;
import io.leaderpacer.agent.reorder.StoredOrders;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each invariant of the chaos test, shown to fail on a small hand-made run that breaks it, with a message naming
 * the run, the partition and the broker; and a run that keeps them all, with its exact count of checks.
 */
class InvariantChecksTest {

    private static final String T = "t";
    private static final PartitionId P0 = new PartitionId(T, 0);
    private static final PartitionId P1 = new PartitionId(T, 1);
    private static final PartitionId P2 = new PartitionId(T, 2);
    /** As created: broker 0 prefers t-0 and t-1, broker 1 prefers t-2. */
    private static final Map<PartitionId, List<Integer>> ORIGINALS =
            Map.of(P0, List.of(0, 1, 2), P1, List.of(0, 2, 1), P2, List.of(1, 2, 0));

    private static final PacerConfig WAIT_FOR_SYNC = PacerConfig.fromMap(Map.of(
            "leader.imbalance.election.algorithm", "wait-for-sync",
            "leader.imbalance.election.max.per.run", "2"));

    private final InvariantChecks checks = new InvariantChecks(2, ORIGINALS);

    /** Broker 0 restarted and back in every ISR; broker 1 leads its partitions meanwhile. */
    private static ClusterSnapshot caughtUp() {
        return ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2))
                .partition(PartitionState.of(T, 0, new int[] {0, 1, 2}, new int[] {0, 1, 2}, 1))
                .partition(PartitionState.of(T, 1, new int[] {0, 2, 1}, new int[] {0, 1, 2}, 2))
                .partition(PartitionState.of(T, 2, new int[] {1, 2, 0}, new int[] {0, 1, 2}, 1))
                .build();
    }

    @Test
    void engineRunOnCaughtUpBroker_passesEveryCheck_withItsExactCount() {
        ClusterSnapshot snapshot = caughtUp();
        ElectionDecision d = PreferredLeaderBalancer.decide(snapshot, WAIT_FOR_SYNC, BalancerMemory.empty(), 0);
        assertThat(d.elections()).extracting(Election::newLeader).containsExactly(0, 0);
        RunRecord run = run(7, WAIT_FOR_SYNC, d, elected(d));

        int passed = checks.afterRun(
                run, Optional.of(snapshot), Optional.of(StoredOrders.empty()), Optional.of(ReorderReport.NOTHING));

        // cap 1 + 2 elections x 4 + 2 results + state topic 1 + settled: 3 partitions in their order
        assertThat(passed).isEqualTo(1 + 8 + 2 + 1 + 3);
    }

    @Test
    void electionOutsideTheIsr_failsNamingRunPartitionAndBroker() {
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2))
                .partition(PartitionState.of(T, 0, new int[] {0, 1, 2}, new int[] {1, 2}, 1))
                .build();
        RunRecord run = run(3, WAIT_FOR_SYNC, decision(WAIT_FOR_SYNC, snapshot, new Election(P0, 1, 0, 0)), List.of());

        assertThatThrownBy(() -> checks.checkElections(run, snapshot))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 3: election of t-0 to broker 0, outside the partition's ISR [1, 2] in the snapshot it was decided on");
    }

    @Test
    void electionToAFencedBroker_fails() {
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .broker(BrokerState.fenced(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2))
                .partition(PartitionState.of(T, 0, new int[] {0, 1, 2}, new int[] {0, 1, 2}, 1))
                .build();
        RunRecord run = run(4, WAIT_FOR_SYNC, decision(WAIT_FOR_SYNC, snapshot, new Election(P0, 1, 0, 0)), List.of());

        assertThatThrownBy(() -> checks.checkElections(run, snapshot))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessageStartingWith("run 4: election of t-0 to broker 0, which the snapshot reports as not active");
    }

    @Test
    void moreElectionsThanTheCap_fail() {
        ClusterSnapshot snapshot = caughtUp();
        ElectionDecision three = decision(
                WAIT_FOR_SYNC,
                snapshot,
                new Election(P0, 1, 0, 0),
                new Election(P1, 2, 0, 0),
                new Election(P2, 1, 1, 1));
        RunRecord run = run(5, WAIT_FOR_SYNC, three, List.of());

        assertThatThrownBy(() -> checks.checkCap(run))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage("run 5: 3 elections decided, more than the cap of 2 (first over the cap: t-2)");
    }

    @Test
    void electionToABrokerTheDecisionReportsGated_fails() {
        // Broker 0 is back in the ISR of t-1 only: 1 of its 2 preferred partitions out of sync, so it is gated.
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2))
                .partition(PartitionState.of(T, 0, new int[] {0, 1, 2}, new int[] {1, 2}, 1))
                .partition(PartitionState.of(T, 1, new int[] {0, 2, 1}, new int[] {0, 1, 2}, 2))
                .build();
        ElectionDecision real = PreferredLeaderBalancer.decide(snapshot, WAIT_FOR_SYNC, BalancerMemory.empty(), 0);
        assertThat(real.isGated(0)).isTrue();
        assertThat(real.elections()).isEmpty();
        ElectionDecision tampered = withElections(real, List.of(new Election(P1, 2, 0, 0)));
        RunRecord run = run(6, WAIT_FOR_SYNC, tampered, List.of());

        assertThatThrownBy(() -> checks.checkElections(run, snapshot))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessageStartingWith(
                        "run 6: election of t-1 to broker 0, which the same decision reports as gated: broker 0: GATED");
    }

    @Test
    void electionToADeprioritizedBrokerWhileAnotherReplicaCouldLead_fails() {
        PacerConfig listed = WAIT_FOR_SYNC.with("preferred.leader.deprioritized.list", "0");
        ClusterSnapshot snapshot = caughtUp();
        RunRecord run = run(8, listed, decision(listed, snapshot, new Election(P0, 1, 0, 0)), List.of());

        assertThatThrownBy(() -> checks.checkElections(run, snapshot))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 8: election of t-0 to deprioritized broker 0 while replica 1 (not deprioritized, in the ISR,"
                                + " active) could lead; list [0]");
    }

    @Test
    void electedBrokerThatIsNotTheFirstReplica_fails() {
        ClusterSnapshot snapshot = caughtUp();
        Election toTwo = new Election(P0, 1, 2, 2);
        RunRecord run = run(
                9,
                WAIT_FOR_SYNC,
                decision(WAIT_FOR_SYNC, snapshot, toTwo),
                List.of(new ElectionResult(P0, 1, 2, ElectionOutcome.ELECTED, "")));

        assertThatThrownBy(() -> checks.checkElections(run, snapshot))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 9: Kafka elected broker 2 for t-0 by a preferred election, but its first replica in the"
                                + " decided snapshot is 0");
    }

    @Test
    void failedRunThatSentElections_fails() {
        RunRecord failed = new RunRecord(
                10,
                0,
                1,
                false,
                WAIT_FOR_SYNC,
                Optional.empty(),
                List.of(new ElectionResult(P0, 1, 0, ElectionOutcome.ELECTED, "")),
                Map.of(),
                0,
                RunTimings.NONE,
                Optional.of("reorder step failed"),
                300_000);

        assertThatThrownBy(() -> checks.checkCap(failed))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage("run 10: failed run (reorder step failed) sent elections, first t-0 to broker 0");
    }

    @Test
    void decisionWithoutTheOrderStepsSnapshot_fails() {
        ElectionDecision d = PreferredLeaderBalancer.decide(caughtUp(), WAIT_FOR_SYNC, BalancerMemory.empty(), 0);
        assertThatThrownBy(() -> checks.afterRun(
                        run(11, WAIT_FOR_SYNC, d, List.of()),
                        Optional.empty(),
                        Optional.of(StoredOrders.empty()),
                        Optional.empty()))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage("run 11: the engine decided without a snapshot from the order step");
    }

    @Test
    void storedOriginalThatIsNotTheCreatedOrder_fails() {
        StoredOrders stored = stored(new OrderRecord(P0, List.of(1, 0, 2), List.of(1, 2, 0), ReorderStatus.REORDERED));

        assertThatThrownBy(() -> checks.checkStateTopic(failedRun(12), Optional.of(caughtUp()), stored))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 12: state record for t-0 stores original order [1, 0, 2] but the partition was created as [0, 1, 2]");
    }

    @Test
    void storedOriginalThatIsNotThePartitionsReplicaSet_fails() {
        ClusterSnapshot moved = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2))
                .broker(BrokerState.active(3))
                .partition(PartitionState.of(T, 0, new int[] {3, 1, 2}, new int[] {3, 1, 2}, 3))
                .build();
        StoredOrders stored = stored(new OrderRecord(P0, List.of(0, 1, 2), List.of(1, 2, 0), ReorderStatus.REORDERED));

        assertThatThrownBy(() -> checks.checkStateTopic(failedRun(13), Optional.of(moved), stored))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 13: state record for t-0 stores original order [0, 1, 2], not a permutation of the current"
                                + " replica set [3, 1, 2]");
    }

    @Test
    void recordForAPartitionTheTestNeverCreated_fails() {
        PartitionId stray = new PartitionId("other", 0);
        StoredOrders stored = stored(new OrderRecord(stray, List.of(0, 1), List.of(1, 0), ReorderStatus.REORDERING));

        assertThatThrownBy(() -> checks.checkStateTopic(failedRun(14), Optional.empty(), stored))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage("run 14: state record for other-0, a partition that did not exist when the test started");
    }

    @Test
    void reorderedOrderThatNoListProduces_fails() {
        StoredOrders stored = stored(new OrderRecord(P0, List.of(0, 1, 2), List.of(2, 1, 0), ReorderStatus.REORDERING));

        assertThatThrownBy(() -> checks.checkStateTopic(failedRun(15), Optional.empty(), stored))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage("run 15: state record for t-0 (REORDERING) has reordered order [2, 1, 0], not its original"
                        + " [0, 1, 2] with some brokers moved to the end");
    }

    @Test
    void unreadableRecord_fails() {
        StoredOrders stored = new StoredOrders(Map.of(), Map.of("t-1", "record t-1: not JSON"));

        assertThatThrownBy(() -> checks.checkStateTopic(failedRun(16), Optional.empty(), stored))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage("run 16: state topic holds an unreadable record for t-1: record t-1: not JSON");
    }

    @Test
    void recordLeftForAPartitionAfterTheListWasCleared_failsOnceSettled() {
        // The list is empty and t-0 is back in [0, 1, 2], but its record was never dropped.
        StoredOrders stored = stored(new OrderRecord(P0, List.of(0, 1, 2), List.of(1, 2, 0), ReorderStatus.REORDERED));

        assertThat(checks.checkStateTopic(failedRun(17), Optional.of(caughtUp()), stored))
                .isEqualTo(1 + 3);
        assertThatThrownBy(() -> checks.checkSettled(noElections(17, WAIT_FOR_SYNC), caughtUp(), stored))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 17: state record for t-0 (REORDERED, original [0, 1, 2]) remains after a settled run, though"
                                + " the deprioritized list [] does not reorder it (no broker of the list ahead of one outside it)");
    }

    @Test
    void recordNotConfirmedToTheCurrentListsOrder_failsOnceSettled() {
        PacerConfig listed = WAIT_FOR_SYNC.with("preferred.leader.deprioritized.list", "0");
        StoredOrders stored = stored(new OrderRecord(P0, List.of(0, 1, 2), List.of(1, 2, 0), ReorderStatus.REORDERING));

        assertThatThrownBy(() -> checks.checkSettled(noElections(18, listed), caughtUp(), stored))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 18: state record for t-0 is REORDERING to [1, 2, 0] after a settled run; with list [0] it"
                                + " should be REORDERED to [1, 2, 0]");
    }

    @Test
    void partitionNotInTheListsOrder_failsOnceSettled() {
        PacerConfig listed = WAIT_FOR_SYNC.with("preferred.leader.deprioritized.list", "0");

        assertThatThrownBy(() -> checks.checkSettled(noElections(19, listed), caughtUp(), StoredOrders.empty()))
                .isInstanceOf(AgentInvariantViolation.class)
                .hasMessage(
                        "run 19: partition t-0 has order [0, 1, 2] after a settled run; created as [0, 1, 2], with list"
                                + " [0] it should be [1, 2, 0] (no state record)");
    }

    @Test
    void settledChecks_applyOnlyWhenTheStepReportsNothingInProgress() {
        assertThat(InvariantChecks.nothingInProgress(ReorderReport.NOTHING)).isTrue();
        ReorderReport refused = new ReorderReport(
                List.of(), List.of(), List.of(), Map.of(P0, "NOT_CONTROLLER"), List.of(), List.of(), Map.of());
        assertThat(InvariantChecks.nothingInProgress(refused)).isFalse();
        ReorderReport moved =
                new ReorderReport(List.of(P0), List.of(), List.of(), Map.of(), List.of(), List.of(), Map.of());
        assertThat(InvariantChecks.nothingInProgress(moved)).isFalse();
    }

    @Test
    void suffixMove_handWorkedCases() {
        assertThat(InvariantChecks.isOriginalWithSuffixMoved(List.of(0, 1, 2), List.of(1, 2, 0)))
                .isTrue();
        assertThat(InvariantChecks.isOriginalWithSuffixMoved(List.of(0, 1, 2), List.of(1, 0, 2)))
                .as("0 and 2 last")
                .isTrue();
        assertThat(InvariantChecks.isOriginalWithSuffixMoved(List.of(0, 1, 2), List.of(0, 1, 2)))
                .as("nothing moved")
                .isTrue();
        assertThat(InvariantChecks.isOriginalWithSuffixMoved(List.of(0, 1, 2), List.of(2, 1, 0)))
                .isFalse();
        assertThat(InvariantChecks.isOriginalWithSuffixMoved(List.of(0, 1, 2), List.of(0, 1, 3)))
                .isFalse();
        assertThat(InvariantChecks.isOriginalWithSuffixMoved(List.of(0, 1, 2), List.of(0, 1)))
                .isFalse();
    }

    // ---- hand-made runs ----

    private static RunRecord run(long seq, PacerConfig config, ElectionDecision d, List<ElectionResult> results) {
        return new RunRecord(
                seq,
                0,
                1,
                false,
                config,
                Optional.of(d),
                results,
                Map.of(),
                3,
                RunTimings.NONE,
                Optional.empty(),
                d.nextRunDelayMs());
    }

    private static RunRecord noElections(long seq, PacerConfig config) {
        return run(seq, config, decision(config, caughtUp()), List.of());
    }

    private static RunRecord failedRun(long seq) {
        return new RunRecord(
                seq,
                0,
                1,
                false,
                WAIT_FOR_SYNC,
                Optional.empty(),
                List.of(),
                Map.of(),
                0,
                RunTimings.NONE,
                Optional.of("could not read the cluster"),
                300_000);
    }

    /** The engine's real decision on the snapshot with its elections replaced (none given: none at all). */
    private static ElectionDecision decision(PacerConfig config, ClusterSnapshot snapshot, Election... elections) {
        return withElections(
                PreferredLeaderBalancer.decide(snapshot, config, BalancerMemory.empty(), 0), List.of(elections));
    }

    private static ElectionDecision withElections(ElectionDecision d, List<Election> elections) {
        return new ElectionDecision(
                d.atMs(),
                d.config(),
                new ArrayList<>(elections),
                d.moreWork(),
                d.imbalancedCount(),
                d.skippedByGate(),
                d.deferredByThrottle(),
                d.brokers(),
                d.nextMemory());
    }

    private static List<ElectionResult> elected(ElectionDecision d) {
        return d.elections().stream()
                .map(e -> new ElectionResult(
                        e.partition(), e.previousLeader(), e.newLeader(), ElectionOutcome.ELECTED, ""))
                .toList();
    }

    private static StoredOrders stored(OrderRecord... records) {
        Map<PartitionId, OrderRecord> byPartition = new HashMap<>();
        for (OrderRecord r : records) {
            byPartition.put(r.partition(), r);
        }
        return new StoredOrders(byPartition, Map.of());
    }
}
