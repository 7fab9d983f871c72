package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingPhase;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: when a pacing look may read the brokers only. */
class QuietLooksTest {

    private static final long T0 = 1_000_000;
    private static final Set<BrokerState> ALL_UP =
            Set.of(BrokerState.active(0), BrokerState.active(1), BrokerState.active(2));

    private static ClusterSnapshot steady() {
        return ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.active(1))
                .broker(BrokerState.active(2))
                .partition(PartitionState.of("t", 0, new int[] {0, 1, 2}, new int[] {0, 1, 2}, 0))
                .build();
    }

    private static PacingReport nothing(long at) {
        return new PacingReport(at, List.of(), List.of(), List.of(), Optional.empty());
    }

    private static QuietLooks afterQuietFullLook() {
        QuietLooks q = new QuietLooks();
        q.fullLook(steady(), nothing(T0), true, true);
        return q;
    }

    @Test
    void fullLookThatFoundNothing_letsTheNextLooksStayQuiet_whileTheBrokersAreAsItSawThem() {
        QuietLooks q = afterQuietFullLook();

        assertThat(q.open()).isTrue();
        assertThat(q.mayStayQuiet(ALL_UP, T0 + 2_000)).isTrue();
        assertThat(q.mayStayQuiet(ALL_UP, T0 + QuietLooks.FULL_LOOK_EVERY_MS - 1))
                .isTrue();
        assertThat(q.brokerIds()).containsExactly(0, 1, 2);
        assertThat(q.inSync()).isTrue();
    }

    @Test
    void brokerFencedStoppedOrAdded_endsTheQuiet() {
        QuietLooks q = afterQuietFullLook();

        assertThat(q.mayStayQuiet(
                        Set.of(BrokerState.active(0), BrokerState.fenced(1), BrokerState.active(2)), T0 + 2_000))
                .as("broker 1 fenced (Kafka 4.0+ lists it)")
                .isFalse();
        assertThat(q.mayStayQuiet(Set.of(BrokerState.active(0), BrokerState.active(2)), T0 + 2_000))
                .as("broker 1 not listed (a fenced broker before Kafka 4.0, or gone)")
                .isFalse();
        assertThat(q.mayStayQuiet(
                        Set.of(
                                BrokerState.active(0),
                                BrokerState.active(1),
                                BrokerState.active(2),
                                BrokerState.active(3)),
                        T0 + 2_000))
                .as("a broker added")
                .isFalse();
    }

    @Test
    void fullLookOlderThanTheBound_endsTheQuiet_soAReplicaLeavingItsIsrWithItsBrokerUpIsSeen() {
        QuietLooks q = afterQuietFullLook();

        assertThat(q.mayStayQuiet(ALL_UP, T0 + QuietLooks.FULL_LOOK_EVERY_MS)).isFalse();
        assertThat(q.mayStayQuiet(ALL_UP, T0 - 1)).as("a clock stepped back").isFalse();
    }

    @Test
    void fullLookThatPacedChangedNotedOrFailed_orPacingOwningAValue_opensNoQuiet() {
        BrokerPacing paced = new BrokerPacing(
                1,
                PacingPhase.PACED,
                OptionalLong.of(1_000_000),
                "catching up",
                new BrokerPacing.Progress(
                        OptionalLong.empty(), OptionalLong.empty(), OptionalDouble.empty(), OptionalLong.empty()));
        List<PacingReport> busy = List.of(
                new PacingReport(T0, List.of(paced), List.of(), List.of(), Optional.empty()),
                new PacingReport(
                        T0, List.of(), List.of("removed the follower rate of broker 1"), List.of(), Optional.empty()),
                new PacingReport(T0, List.of(), List.of(), List.of("left someone else's rate"), Optional.empty()),
                new PacingReport(T0, List.of(), List.of(), List.of(), Optional.of("the canary cannot run")));
        for (PacingReport r : busy) {
            QuietLooks q = new QuietLooks();
            q.fullLook(steady(), r, true, true);
            assertThat(q.open()).as("%s", r).isFalse();
        }
        QuietLooks owning = new QuietLooks();
        owning.fullLook(steady(), nothing(T0), false, true);
        assertThat(owning.open()).as("pacing owns a throttle value").isFalse();
    }

    @Test
    void quietThenBusyFullLook_closesIt() {
        QuietLooks q = afterQuietFullLook();
        q.fullLook(
                steady(),
                new PacingReport(T0 + 30_000, List.of(), List.of("set"), List.of(), Optional.empty()),
                true,
                true);

        assertThat(q.open()).isFalse();
        assertThat(q.mayStayQuiet(ALL_UP, T0 + 32_000)).isFalse();
    }

    @Test
    void close_makesTheNextLookReadInFull() {
        QuietLooks q = afterQuietFullLook();
        q.close();

        assertThat(q.mayStayQuiet(ALL_UP, T0 + 2_000)).isFalse();
    }
}
