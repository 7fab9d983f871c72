package io.leaderpacer.loadtest.probe;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CatchUpResultTest {

    private static final long MIB = 1L << 20;

    private static CatchUpResult result(long heldMib, List<CatchUpSample> samples) {
        return new CatchUpResult(
                "c",
                "throttled",
                new CatchUpResult.Backlog(heldMib * MIB, 100 * MIB),
                new CatchUpResult.Times(4000, OptionalLong.of(20_000)),
                samples,
                new CatchUpResult.Throttle(List.of(), ""));
    }

    @Test
    void observedRate_runsFromTheFirstAnsweringLook_toTheFirstWithinOnePercent_ofWhatHadToBeFetched() {
        CatchUpResult r = result(
                50,
                List.of(
                        new CatchUpSample(1000, -1, 0, -1),
                        new CatchUpSample(5000, 60 * MIB, 0, -1),
                        new CatchUpSample(10_000, 110 * MIB, 3, -1),
                        new CatchUpSample(15_000, 150 * MIB, 12, -1),
                        new CatchUpSample(20_000, 150 * MIB, 12, -1)));

        // held 50, fetched 10 at the first answer, done (150 = 50 + 100) at 15 s: 90 MiB in 10 s.
        assertThat(r.observedMiBps()).isCloseTo(9.0, within(1e-9));
        assertThat(r.fetchedAtFirstLook()).isCloseTo(0.10, within(1e-9));
        assertThat(r.effectiveMiBps()).isCloseTo(5.0, within(1e-9));
    }

    @Test
    void fewerThanTwoAnsweringLooks_haveNoObservedRate() {
        assertThat(result(0, List.of(new CatchUpSample(1000, -1, 0, -1), new CatchUpSample(2000, 100 * MIB, 12, -1)))
                        .observedMiBps())
                .isNaN();
    }
}
