package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.core.CatchUpQuota;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.RateText;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;

/**
 * Catch-up pacing in words, for {@code pacer plan} and {@code pacer status}: per recovering broker, the rate and why,
 * how far its catch-up is (a bar of bytes fetched over the most bytes behind seen) and when it should be back in
 * every ISR; then what pacing changed (or would change) in the cluster, and what it left alone.
 *
 * <p>Why a bar: at 3 a.m. "600 MB behind, 20 MB/s, in 30 s" is read faster as a bar that fills.
 */
final class PacingText {

    private static final int BAR = 20;

    private PacingText() {}

    static void print(PrintWriter out, CatchUpPacing config, PacingReport report, boolean preview) {
        if (!config.enabled()) {
            out.println("Catch-up pacing: off (leader.imbalance.catch.up.pacing=off).");
            return;
        }
        out.printf(
                Locale.ROOT,
                "Catch-up pacing: %s, from %s%s.%n",
                config.mode().configValue(),
                mib(config.startRateBytes()),
                preview ? "; what it would do now, as a newly active instance" : "");
        config.rateHeldNote().ifPresent(n -> out.println("  note: " + n + "."));
        report.problem().ifPresent(p -> out.println("  problem: " + p));
        if (report.brokers().isEmpty() && report.failed()) {
            out.println("  The last look failed: which brokers recover is not known; what pacing set stays as it was"
                    + " until a look succeeds (pacer throttles lists it).");
        } else if (report.brokers().isEmpty()) {
            out.println(
                    report.quiet()
                            ? "  No broker is recovering (a quiet look: it read the brokers only, every"
                                    + " replica having been in its ISR at the last full read)."
                            : "  No broker is recovering.");
        }
        for (BrokerPacing b : report.brokers()) {
            out.println("  " + line(b, report.quota(b.broker())));
        }
        for (String c : report.changes()) {
            out.println((preview ? "  would change: " : "  changed: ") + c);
        }
        for (String n : report.notes()) {
            out.println("  note: " + n);
        }
    }

    /**
     * e.g. "broker 1  [#######.............] 35%  20.0 MiB/s  512 MiB behind, 19.3 MiB/s, in ~27 s  static 20.0 MiB/s";
     * with what pacing sets and what the catch-up fetched, where known: "20.0 MiB/s decided, 24.5 MiB/s set (4.5 MiB/s
     * of it in-sync bytes Kafka counts on the same quota), 19.8 MiB/s fetched".
     */
    static String line(BrokerPacing b, Optional<CatchUpQuota> quota) {
        BrokerPacing.Progress p = b.progress();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "broker %d  ", b.broker()));
        if (p.done().isPresent()) {
            int filled = (int) Math.round(p.done().getAsDouble() * BAR);
            sb.append('[')
                    .append("#".repeat(filled))
                    .append(".".repeat(BAR - filled))
                    .append(String.format(Locale.ROOT, "] %3.0f%%  ", p.done().getAsDouble() * 100));
        }
        sb.append(b.rateBytes().isPresent() ? mib(b.rateBytes().getAsLong()) : "unthrottled");
        if (b.rateBytes().isPresent()
                && (quota.isPresent() || p.fetchedBytesPerSecond().isPresent())) {
            sb.append(" decided");
            quota.filter(q -> q.setBytes() != q.decidedBytes())
                    .ifPresent(q -> sb.append(String.format(
                            Locale.ROOT,
                            ", %s set (%s of it in-sync bytes Kafka counts on the same quota)",
                            mib(q.setBytes()),
                            mib(q.chargedBytes()))));
            p.fetchedBytesPerSecond()
                    .ifPresent(f -> sb.append(String.format(Locale.ROOT, ", %s fetched", mib(Math.round(f)))));
        }
        if (p.bytesBehind().isPresent()) {
            sb.append(String.format(
                    Locale.ROOT, "  %.0f MiB behind", p.bytesBehind().getAsLong() / 1048576.0));
            p.catchUpBytesPerSecond().ifPresent(r -> sb.append(String.format(Locale.ROOT, ", %s", mib((long) r))));
            p.etaMs().ifPresent(e -> sb.append(String.format(Locale.ROOT, ", back in every ISR in ~%d s", e / 1000)));
        }
        return sb.append("  ").append(b.reason()).toString();
    }

    private static String mib(long bytesPerSecond) {
        return RateText.of(bytesPerSecond);
    }
}
