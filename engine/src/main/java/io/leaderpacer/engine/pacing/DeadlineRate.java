package io.leaderpacer.engine.pacing;

import io.leaderpacer.engine.config.CatchUpPacing;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

import static io.leaderpacer.engine.pacing.CatchUpPacer.bytesText;

/**
 * The least rate that has the broker lead its preferred partitions again by the deadline, and why: the deadline turned
 * into a floor under the pacing rate, so that an operator who chose how long a recovery may take gets it (or an escape
 * when even the max rate would miss it).
 *
 * @param bytesPerSecond what flows into the partitions it counts, plus their bytes behind over the time left
 * @param unreachable    whether even the max rate would miss it (or no time is left)
 * @param text           the deadline's arithmetic in words, for the reason
 */
record DeadlineRate(long bytesPerSecond, boolean unreachable, String text) {

    /**
     * With a deadline: the time left is the deadline less the time since the broker came up and the time the election
     * runs take to hand back every preferred partition it does not lead yet, in sync or not (so many a run, a capped run's interval
     * apart, after the gate's release and a look); the catch-up must fetch the bytes behind of its preferred
     * replicas (all of its out-of-sync replicas when they do not go first, since they then catch up together) and
     * what flows into them meanwhile. Empty without a deadline, before the broker is up, or when the bytes are not
     * known.
     */
    static Optional<DeadlineRate> of(BrokerSignals s, PacingEpisode ep, CatchUpPacing config, long nowMs) {
        CatchUpPacing.Deadline d = config.deadline();
        if (!d.set() || s.state() != CatchUpState.CATCHING_UP) {
            return Optional.empty();
        }
        OptionalLong behind = config.preferredFirst() ? s.preferred().bytesBehind() : s.bytesBehind();
        if (behind.isEmpty()) {
            return Optional.empty();
        }
        double inflow = config.preferredFirst()
                ? s.preferred().inflowBytesPerSecond().orElse(0)
                : s.flow().inflowBytesPerSecond().orElse(0);
        long returnMs = s.preferred().notLed() * d.returnMsPerPartition()
                + d.gateReleaseMs()
                + config.timing().intervalMs();
        long upMs = ep.clock().upMs(nowMs);
        long leftMs = d.ms() - upMs - returnMs;
        String text = String.format(
                Locale.ROOT,
                "deadline %d s from unfencing, %d s in: %s of %s behind and %s flowing in, %d s left before the"
                        + " %d s its leadership takes to come back",
                d.ms() / 1000,
                upMs / 1000,
                bytesText(behind.getAsLong()),
                config.preferredFirst() ? "its preferred replicas" : "its replicas",
                RateText.of(Math.round(inflow)),
                Math.max(0, leftMs) / 1000,
                returnMs / 1000);
        if (behind.getAsLong() == 0) {
            return Optional.of(new DeadlineRate(0, false, text + ": on course"));
        }
        if (leftMs <= 0) {
            return Optional.of(new DeadlineRate(0, true, text + ": no time left to catch up"));
        }
        long need = (long) Math.ceil(inflow + behind.getAsLong() * 1000.0 / leftMs);
        if (need > config.ceilingBytes()) {
            return Optional.of(new DeadlineRate(need, true, text + ": it needs " + RateText.of(need)));
        }
        return Optional.of(new DeadlineRate(need, false, text + ": at least " + RateText.of(need)));
    }
}
