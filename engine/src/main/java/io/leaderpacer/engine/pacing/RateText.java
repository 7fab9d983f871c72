package io.leaderpacer.engine.pacing;

import java.util.Locale;

/**
 * A replication rate as every message of pacing writes it: MiB/s to a tenth, and under 1 MiB/s KiB/s to a tenth.
 *
 * <p>Why one class: the engine's reasons and the agent's notes, log lines and {@code pacer status} name the same rates
 * side by side; and why KiB under a MiB: a rate of 40,000 B/s read "0.0 MiB/s", so a stall's "fetched 0.0 MiB/s of
 * the 0.0 MiB/s allowed" said nothing of the flows it was judged on.
 */
public final class RateText {

    private RateText() {}

    /** {@code bytesPerSecond} as an operator reads it: "20.0 MiB/s", "39.1 KiB/s". */
    public static String of(long bytesPerSecond) {
        if (Math.abs(bytesPerSecond) < 1048576) {
            return String.format(Locale.ROOT, "%.1f KiB/s", bytesPerSecond / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MiB/s", bytesPerSecond / 1048576.0);
    }
}
