package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.View;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Hand-worked: KIP-1358's reference pools steady sends, and its ratio is judged only over its own ten minutes. */
class KipReferenceTest {

    /**
     * A round with these steady sends, a strict window P99 of 3 × {@code kipP99}, and KIP-1358's window lasting
     * {@code kipMs} with that P99 (0: not measured).
     */
    private static RoundResult round(String policy, int n, double kipP99, long kipMs, Histogram steady) {
        RoundResult r = Rounds.round(policy, n, 3 * kipP99, 3 * kipP99, 0, 20_000L, 10_000, 0.4);
        RoundResult.Latency l = r.latency();
        Map<View, LatencyFigures> kip = new EnumMap<>(View.class);
        if (kipMs > 0) {
            for (View v : View.values()) {
                kip.put(v, new LatencyFigures(1000, 2, kipP99, kipP99, kipP99));
            }
        }
        return new RoundResult(
                r.policy(),
                r.round(),
                new RoundResult.Latency(
                        l.steady(), l.window(), l.steadyWindows(), l.errors(), l.seconds(), l.buckets(), steady, kip),
                new RoundResult.Moments(
                        r.moments().stoppedAtMs(),
                        r.moments().restartedAtMs(),
                        r.moments().unfencedAtMs(),
                        r.moments().windowMs(),
                        r.moments().endedAtMs(),
                        kipMs),
                r.recovery(),
                r.saturation(),
                r.trace());
    }

    /** {@code fast} sends of 10 ms and {@code slow} of 500 ms, in microseconds as the load test records them. */
    private static Histogram sends(int fast, int slow) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(10_000, fast);
        if (slow > 0) {
            h.recordValueWithCount(500_000, slow);
        }
        return h;
    }

    @Test
    void pooledAsSends_aStallInOneRoundsSteadyPhaseCounts_asAnHourOfProductionWouldCountIt() {
        // Two rounds of 990 fast sends each; one of them had 30 slow ones (a stall): 30 of 2,010 is 1.5 %, over the
        // 1 % a P99 leaves out, so the pooled P99 is the stall's 500 ms. A median of window P99s would not see it.
        KipReference k = KipReference.of(List.of(
                round("a", 1, 20, KipReference.WINDOW_MS, sends(990, 0)),
                round("a", 2, 20, KipReference.WINDOW_MS, sends(990, 30))));

        assertThat(k.sends()).isEqualTo(2010);
        assertThat(k.p99Ms()).isCloseTo(500, within(1.0));
    }

    @Test
    void theRatio_isTheTenMinuteWindowsP99OverThePooledOne_notTheStrictWindows() {
        KipReference k = new KipReference(20, 1000);
        RoundResult tenMinutes = round("a", 1, 30, KipReference.WINDOW_MS + 137, sends(10, 0));
        RoundResult notMeasured = round("a", 2, 30, 0, sends(10, 0));
        RoundResult couldNotBe = round("a", 3, 30, -1, sends(10, 0));

        assertThat(k.ratio(tenMinutes))
                .as("30 ms over 20 ms, not the strict window's 90 ms")
                .isEqualTo(1.5);
        assertThat(k.ratio(notMeasured)).as("run without --kip-window").isNaN();
        assertThat(k.ratio(couldNotBe))
                .as("its strict window outlasted ten minutes")
                .isNaN();
    }

    @Test
    void thePolicyTable_showsTheKipRatio_andNamesAWindowThatIsNotKip1358s() {
        LoadTestResult kip = new LoadTestResult(
                List.of(),
                true,
                "immediate",
                List.of(
                        round("immediate", 1, 100, KipReference.WINDOW_MS, sends(1000, 0)),
                        round("paced", 1, 12, KipReference.WINDOW_MS, sends(1000, 0))));
        LoadTestResult strict = new LoadTestResult(
                List.of(), true, "immediate", List.of(round("immediate", 1, 100, 0, sends(1000, 0))));
        int ratio = LoadTestTable.POLICY_HEADER.indexOf("KIP P99 ratio (10 min, pooled steady sends)");
        int verdict = LoadTestTable.POLICY_HEADER.indexOf("KIP: P99 <= 1.5x");

        List<List<String>> rows = LoadTestTable.policyRows(kip);
        // The pooled 10 ms sends read back as HdrHistogram's 10.007 ms (3 significant digits).
        assertThat(rows.get(0).get(ratio)).isEqualTo("9.99");
        assertThat(rows.get(0).get(verdict)).isEqualTo("FAIL");
        assertThat(rows.get(1).get(ratio)).isEqualTo("1.20");
        assertThat(rows.get(1).get(verdict)).isEqualTo("PASS");
        assertThat(LoadTestTable.policyRows(strict).get(0).get(ratio)).isEqualTo("n/a (window not 10 min)");
    }

    @Test
    void theFindings_stateTheReferenceAndEachRoundsTenMinuteP99_soThatEveryRatioCanBeChecked() {
        LoadTestResult result = new LoadTestResult(
                List.of("settings"),
                true,
                "a",
                List.of(
                        round("a", 1, 30, KipReference.WINDOW_MS, sends(990, 0)),
                        round("b", 1, 45, KipReference.WINDOW_MS, sends(990, 0))));

        assertThat(Findings.kipWindow(result))
                .hasValue("KIP-1358's reference: P99 10.0 ms of 1980 sends, every round's steady phase pooled as sends;"
                        + " each round's P99 over the ten minutes from unfencing, all sends: a 1: 30.0 ms (3.00×);"
                        + " b 1: 45.0 ms (4.50×).");
        assertThat(Findings.of(result)).anySatisfy(f -> assertThat(f).startsWith("KIP-1358's reference"));
    }

    @Test
    void aRunWithoutTheTenMinuteWindow_saysNothingOfKip1358sFigures() {
        LoadTestResult result =
                new LoadTestResult(List.of("settings"), true, "a", List.of(round("a", 1, 30, 0, sends(990, 0))));

        assertThat(Findings.kipWindow(result)).isEmpty();
    }
}
