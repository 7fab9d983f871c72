package io.leaderpacer.loadtest.load;

import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyBookTest {

    private static final long MS = 1_000_000L;

    @Test
    void sendsOfOnePhase_areSplitByClassAndByRole_andBothSplitsAddUp() {
        LatencyBook book = new LatencyBook();
        book.record(Phase.WINDOW, SendClass.PROTECTED, BrokerRole.LEADER, 100 * MS, null);
        book.record(Phase.WINDOW, SendClass.PROTECTED, BrokerRole.IN_SYNC_FOLLOWER, 50 * MS, null);
        book.record(Phase.WINDOW, SendClass.OTHER, BrokerRole.IN_SYNC_FOLLOWER, 5 * MS, null);
        book.record(Phase.WINDOW, SendClass.OTHER, BrokerRole.NOT_IN_ISR, 2 * MS, null);
        book.record(Phase.STEADY, SendClass.OTHER, BrokerRole.NOT_IN_ISR, 1 * MS, null);

        Map<View, Long> window = book.counts().get(Phase.WINDOW);
        assertThat(window.get(View.ALL)).isEqualTo(4);
        assertThat(window.get(View.PROTECTED) + window.get(View.OTHER)).isEqualTo(4);
        assertThat(window.get(View.LEADER) + window.get(View.IN_SYNC_FOLLOWER) + window.get(View.NOT_IN_ISR))
                .isEqualTo(4);
        assertThat(window.get(View.PROTECTED)).isEqualTo(2);
        assertThat(book.counts().get(Phase.STEADY).get(View.ALL)).isEqualTo(1);
        assertThat(book.histogram(Phase.WINDOW, View.LEADER).getMaxValue()).isBetween(99_900L, 100_100L);
        assertThat(book.histogram(Phase.WINDOW, View.OTHER).getMaxValue()).isBetween(4_990L, 5_010L);
    }

    @Test
    void failures_areCountedByKafkaErrorName_perPhaseAndView() {
        LatencyBook book = new LatencyBook();
        book.record(
                Phase.DOWN, SendClass.PROTECTED, BrokerRole.NOT_IN_ISR, 30_000 * MS, new TimeoutException("expired"));
        book.record(
                Phase.WINDOW, SendClass.OTHER, BrokerRole.LEADER, 3 * MS, new NotLeaderOrFollowerException("moved"));

        assertThat(book.errors(Phase.DOWN, View.PROTECTED)).containsExactly(Map.entry("REQUEST_TIMED_OUT", 1L));
        assertThat(book.errors(Phase.DOWN, View.OTHER)).isEmpty();
        assertThat(book.errors(Phase.WINDOW, View.ALL)).containsExactly(Map.entry("NOT_LEADER_OR_FOLLOWER", 1L));
    }

    @Test
    void rollingASecond_summarisesEveryView_andStartsTheNextSecondEmpty() {
        LatencyBook book = new LatencyBook();
        for (int i = 1; i <= 100; i++) {
            book.record(Phase.STEADY, SendClass.OTHER, BrokerRole.NOT_IN_ISR, i * MS, null);
        }
        book.rollSecond(0);
        book.rollSecond(1);

        List<SecondSample> s = book.seconds();
        assertThat(s).hasSize(2 * View.values().length);
        SecondSample all0 = s.stream()
                .filter(x -> x.second() == 0 && x.view() == View.ALL)
                .findFirst()
                .orElseThrow();
        assertThat(all0.count()).isEqualTo(100);
        assertThat(all0.p99Ms()).isBetween(98.0, 100.0);
        assertThat(all0.p50Ms()).isBetween(49.0, 51.0);
        SecondSample protected0 = s.stream()
                .filter(x -> x.second() == 0 && x.view() == View.PROTECTED)
                .findFirst()
                .orElseThrow();
        assertThat(protected0.count()).isZero();
        assertThat(protected0.p99Ms()).isNaN();
        SecondSample all1 = s.stream()
                .filter(x -> x.second() == 1 && x.view() == View.ALL)
                .findFirst()
                .orElseThrow();
        assertThat(all1.count()).isZero();
    }
}
