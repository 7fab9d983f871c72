package io.leaderpacer.cli.demo;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ProduceLatencyTest {

    private static long ms(long v) {
        return TimeUnit.MILLISECONDS.toNanos(v);
    }

    @Test
    void interval_reportsP99OfTheSendsSinceTheLastInterval() {
        ProduceLatency latency = new ProduceLatency();
        for (int i = 0; i < 99; i++) {
            latency.record(ms(2), null);
        }
        latency.record(ms(500), null);
        latency.record(ms(500), null);

        ProduceLatency.Interval first = latency.takeInterval();
        ProduceLatency.Interval second = latency.takeInterval();

        assertThat(first.count()).isEqualTo(101);
        assertThat(first.p99Ms()).isCloseTo(500, within(10.0));
        assertThat(second.count()).isZero();
        assertThat(second.p99Ms()).isNaN();
    }

    @Test
    void window_isTheP99OverEverySendNotTheWorstInterval() {
        ProduceLatency latency = new ProduceLatency();
        latency.openWindow();
        latency.record(ms(400), null);
        latency.record(ms(400), null);
        latency.takeInterval();
        for (int i = 0; i < 998; i++) {
            latency.record(ms(3), null);
        }
        latency.takeInterval();

        ProduceLatency.Interval window = latency.closeWindow();

        assertThat(window.count()).isEqualTo(1000);
        assertThat(window.p99Ms()).isCloseTo(3, within(0.1));
    }

    @Test
    void sendsBeforeTheWindowOpened_countForTheIntervalButNotTheWindow() {
        ProduceLatency latency = new ProduceLatency();
        latency.record(ms(900), null);
        latency.openWindow();
        latency.record(ms(5), null);

        ProduceLatency.Interval interval = latency.takeInterval();
        ProduceLatency.Interval window = latency.closeWindow();

        assertThat(interval.count()).isEqualTo(2);
        assertThat(interval.p99Ms()).isCloseTo(900, within(10.0));
        assertThat(window.count()).isEqualTo(1);
        assertThat(window.p99Ms()).isCloseTo(5, within(0.1));
    }

    @Test
    void noWindowOpen_closesToNothing() {
        ProduceLatency.Interval window = new ProduceLatency().closeWindow();

        assertThat(window.count()).isZero();
        assertThat(window.p99Ms()).isNaN();
    }

    @Test
    void failedSends_areCountedAndTheirLatencyKept() {
        ProduceLatency latency = new ProduceLatency();
        latency.record(ms(30_000), new RuntimeException("delivery timeout"));

        assertThat(latency.failures()).isEqualTo(1);
        assertThat(latency.takeInterval().p99Ms()).isCloseTo(30_000, within(300.0));
    }
}
