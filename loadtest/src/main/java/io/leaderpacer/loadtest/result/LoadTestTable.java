package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.observe.AgentRunSample;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The load test's tables: one row per policy (medians and spread over its rounds, the seed's three criteria), and
 * one row per round, as rows of text; {@link io.leaderpacer.report.TextTable} lays them out.
 *
 * <p>Why the protected class has columns of its own: the gate acts on the producers of the partitions whose
 * preferred leader is the restarted broker; a cluster-wide P99 (the seed's criterion) dilutes them with everyone
 * else.
 */
public final class LoadTestTable {

    public static final List<String> POLICY_HEADER = List.of(
            "policy",
            "rounds",
            "own steady P99 ms",
            "window P99 ms",
            "P99 ratio (all)",
            "P99 ratio (protected)",
            "P99 ratio (other)",
            "time-outs",
            "failed sends",
            "recovery s",
            "physical limit s",
            "recovery vs baseline",
            "broker CPU in catch-up (cores)",
            "P99 <= 1.5x",
            "no time-outs",
            "recovery <= 2x",
            "KIP P99 ratio (10 min, pooled steady sends)",
            "KIP: P99 <= 1.5x");

    public static final List<String> ROUND_HEADER = List.of(
            "policy",
            "round",
            "own steady P99 ms (all/protected)",
            "window P99 ms (all/protected/other)",
            "window P99 ms by role (leader/in-sync follower/not in ISR)",
            "time-outs",
            "failed sends",
            "unfenced after start s",
            "recovery s",
            "ISR re-entry s first/p50/p90/last",
            "gate release s",
            "election batches",
            "broker CPU cores steady/catch-up/after",
            "pacing MiB/s min/median/max");

    private LoadTestTable() {}

    public static List<List<String>> policyRows(LoadTestResult result) {
        List<List<String>> rows = new ArrayList<>();
        boolean disturbed = result.disturbedReference().isPresent();
        for (PolicySummary s : result.summaries()) {
            rows.add(List.of(
                    s.policy(),
                    Integer.toString(s.rounds().size()),
                    s.steadyP99(View.ALL).text("%.1f"),
                    s.windowP99(View.ALL).text("%.1f"),
                    s.p99Ratio(View.ALL).text("%.2f"),
                    s.p99Ratio(View.PROTECTED).text("%.2f"),
                    s.p99Ratio(View.OTHER).text("%.2f"),
                    Long.toString(s.timeouts()),
                    Long.toString(s.failures()),
                    s.recoverySeconds().text("%.1f")
                            + (s.unrecoveredRounds() > 0 ? " (" + s.unrecoveredRounds() + " not recovered)" : ""),
                    s.physicalLimitSeconds().text("%.1f"),
                    Double.isNaN(s.recoveryRatio()) ? "n/a" : String.format(Locale.ROOT, "%.2f", s.recoveryRatio()),
                    s.catchUpBusyCores().text("%.2f"),
                    disturbed ? "n/a (steady reference disturbed)" : pass(s.p99Pass()),
                    pass(s.timeoutsPass()),
                    s.recoveryJudged() ? pass(s.recoveryPass()) : "n/a (no " + result.baseline() + " rounds)",
                    s.kipWindow() ? s.kipP99Ratio().text("%.2f") : "n/a (window not 10 min)",
                    s.kipWindow() ? pass(s.kipP99Pass()) : "n/a"));
        }
        return rows;
    }

    /** The policy table's columns that fit a terminal: no absolute latencies, no failure count. */
    private static final List<Integer> SHORT = List.of(0, 1, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17);

    public static List<String> policyHeaderShort() {
        return SHORT.stream().map(POLICY_HEADER::get).toList();
    }

    public static List<List<String>> policyRowsShort(LoadTestResult result) {
        return policyRows(result).stream()
                .map(row -> SHORT.stream().map(row::get).toList())
                .toList();
    }

    public static List<List<String>> roundRows(LoadTestResult result) {
        List<List<String>> rows = new ArrayList<>();
        SteadyReference reference = result.steadyReference();
        for (RoundResult r : result.rounds()) {
            rows.add(List.of(
                    r.policy(),
                    Integer.toString(r.round()),
                    ms(r.latency().steady().get(View.ALL)) + "/"
                            + ms(r.latency().steady().get(View.PROTECTED))
                            + (reference.flagged(r)
                                    ? String.format(
                                            Locale.ROOT, " (%.1fx the reference: disturbed)", reference.offBy(r))
                                    : ""),
                    ms(r.latency().window().get(View.ALL)) + "/"
                            + ms(r.latency().window().get(View.PROTECTED)) + "/"
                            + ms(r.latency().window().get(View.OTHER)),
                    ms(r.latency().window().get(View.LEADER)) + "/"
                            + ms(r.latency().window().get(View.IN_SYNC_FOLLOWER)) + "/"
                            + ms(r.latency().window().get(View.NOT_IN_ISR)),
                    Long.toString(r.timeouts()),
                    Long.toString(r.failures()),
                    seconds(r.moments().unfencedAtMs() - r.moments().restartedAtMs()),
                    r.recoveryMs().isPresent() ? seconds(r.recoveryMs().getAsLong()) : "not recovered",
                    r.recovery().timeline().text(),
                    r.recovery().gateReleasedAtMs().isPresent()
                            ? seconds(r.recovery().gateReleasedAtMs().getAsLong()
                                    - r.moments().unfencedAtMs())
                            : "-",
                    batches(r),
                    cores(r.saturation().steadyCores()) + "/"
                            + cores(r.saturation().catchUpBusyCores()) + "/"
                            + cores(r.saturation().afterCatchUpCores()),
                    pacing(r)));
        }
        return rows;
    }

    /** The rates catch-up pacing set for the restarted broker while it paced it; "-" when it did not. */
    static String pacing(RoundResult r) {
        Spread rates = r.pacingRatesMiBps();
        return rates.n() == 0
                ? "-"
                : String.format(Locale.ROOT, "%.1f/%.1f/%.1f", rates.min(), rates.median(), rates.max());
    }

    private static String batches(RoundResult r) {
        List<AgentRunSample> b = r.batchesToBroker();
        return b.size() + " (largest "
                + b.stream().mapToInt(x -> x.electedToBroker()).max().orElse(0) + ")";
    }

    private static String cores(OptionalDouble d) {
        return d.isPresent() ? String.format(Locale.ROOT, "%.2f", d.getAsDouble()) : "n/a";
    }

    private static String ms(LatencyFigures f) {
        return f == null || f.count() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", f.p99Ms());
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1f", ms / 1000.0);
    }

    private static String pass(boolean ok) {
        return ok ? "PASS" : "FAIL";
    }
}
