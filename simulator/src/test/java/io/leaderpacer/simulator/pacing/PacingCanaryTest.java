package io.leaderpacer.simulator.pacing;

import io.leaderpacer.simulator.model.RestartedRole;
import org.junit.jupiter.api.Test;

import java.util.OptionalDouble;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The canary as the agent reads it: a hundred sends a look. Worked by hand: 2 % of the in-sync follower's writes wait
 * 1 s behind a throttled catch-up response, the rest take 10 ms as in the steady phase. The population's P99 is then
 * 1 s at every look, 100 times the steady one; a hundred sends' P99 (their second slowest) is that slow only when two
 * or more of them were caught, in 60 % of the looks (SampledQuantileTest), and near steady in the others: the looks
 * at which the agent raises its rate.
 */
class PacingCanaryTest {

    private static final long STEADY_END_MS = 60_000;
    private static final int LOOKS = 500;

    /** Ratios at {@link #LOOKS} looks 5 s apart, each after 5 s of writes with the given share caught. */
    private static double[] ratios(PacingCanary canary) {
        long t = 0;
        for (; t < STEADY_END_MS; t += 1000) {
            second(canary, t, 0);
        }
        double[] out = new double[LOOKS];
        for (int look = 0; look < LOOKS; look++) {
            for (int s = 0; s < 5; s++, t += 1000) {
                second(canary, t, 20);
            }
            OptionalDouble r = canary.ratio(t);
            assertThat(r).isPresent();
            out[look] = r.getAsDouble();
        }
        return out;
    }

    /** One second of 1,000 in-sync follower writes, {@code caughtPerMille} of them caught. */
    private static void second(PacingCanary canary, long atMs, long caughtPerMille) {
        canary.beginTick(atMs);
        canary.recordExact(10, (1000 - caughtPerMille) * 1000, 0, false, RestartedRole.IN_SYNC_FOLLOWER);
        canary.recordExact(1000, caughtPerMille * 1000, 0, false, RestartedRole.IN_SYNC_FOLLOWER);
    }

    private static double quietShare(double[] ratios) {
        int quiet = 0;
        for (double r : ratios) {
            if (r <= 1.5) {
                quiet++;
            }
        }
        return quiet / (double) ratios.length;
    }

    @Test
    void population_overTheTargetAtEveryLook() {
        assertThat(quietShare(ratios(new PacingCanary(0.1, STEADY_END_MS)))).isZero();
    }

    @Test
    void aHundredSendsALook_withinTheTargetAtAboutFourLooksInTen() {
        PacingCanary sampled =
                new PacingCanary(0.1, STEADY_END_MS, PacingCanary.SENDS_PER_LOOK, new SplittableRandom(7));
        // 1 - 0.597, with a standard deviation of 0.022 over 500 looks.
        assertThat(quietShare(ratios(sampled))).isBetween(0.33, 0.47);
    }
}
