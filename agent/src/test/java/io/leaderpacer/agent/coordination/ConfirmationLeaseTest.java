package io.leaderpacer.agent.coordination;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ConfirmationLeaseTest {

    private static final long L = TimeUnit.MILLISECONDS.toNanos(2000);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final ConfirmationLease lease = new ConfirmationLease(L, nanos::get);

    @Test
    void lessThanAMillisecondBeforeTheFirstAction_theDelayIsOneMillisecond_notZero() {
        lease.firstActionAfter(nanos.get(), 0);
        nanos.addAndGet(L - 500_000);

        assertThat(lease.tooEarly(lease.now())).isTrue();
        assertThat(lease.firstActionDelayMs()).isEqualTo(1);
    }

    @Test
    void aDelayOfZero_meansTheActionIsAllowed() {
        lease.firstActionAfter(nanos.get(), 0);
        nanos.addAndGet(L - 3_000_000);
        int allowed = 0;
        for (int step = 0; step < 18; step++) {
            nanos.addAndGet(333_333);
            if (lease.firstActionDelayMs() == 0) {
                allowed++;
                assertThat(lease.tooEarly(lease.now())).isFalse();
            }
        }
        assertThat(allowed).isPositive();
    }

    @Test
    void thePredecessorsThrottleWait_pushesTheFirstActionLater() {
        lease.firstActionAfter(nanos.get(), 5000);

        assertThat(lease.firstActionDelayMs()).isEqualTo(5000);
        nanos.addAndGet(L);
        assertThat(lease.tooEarly(lease.now())).isTrue();
    }
}
