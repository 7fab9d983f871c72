package io.leaderpacer.engine.pacing;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The decision for one recovering broker.
 *
 * @param broker        its id
 * @param phase         paced or escaped
 * @param rateBytes     the follower replication rate to set, bytes per second; empty: no throttle
 * @param reason        why, in one line an operator can act on (e.g. "canary P99 1.9x steady: rate cut to 24 MiB/s")
 * @param progress      how its catch-up goes, when it is known
 */
public record BrokerPacing(int broker, PacingPhase phase, OptionalLong rateBytes, String reason, Progress progress) {

    /**
     * @param bytesBehind    the bytes behind at this look, if known
     * @param peakBytesBehind the most bytes behind seen since the broker came back: what "done" is a share of
     * @param catchUpBytesPerSecond the rate at which they fell since the previous look, if known
     * @param etaMs          bytes behind over that rate: when it would be back in every ISR at the current pace
     * @param fetchedBytesPerSecond what its out-of-sync replicas fetched since the previous look (their growth), if
     *                       measured: beside the rate decided, it tells whether the catch-up gets that rate
     */
    public record Progress(
            OptionalLong bytesBehind,
            OptionalLong peakBytesBehind,
            OptionalDouble catchUpBytesPerSecond,
            OptionalLong etaMs,
            OptionalDouble fetchedBytesPerSecond) {

        public static final Progress UNKNOWN =
                new Progress(OptionalLong.empty(), OptionalLong.empty(), OptionalDouble.empty(), OptionalLong.empty());

        /** Progress with no fetch measured. */
        public Progress(
                OptionalLong bytesBehind,
                OptionalLong peakBytesBehind,
                OptionalDouble catchUpBytesPerSecond,
                OptionalLong etaMs) {
            this(bytesBehind, peakBytesBehind, catchUpBytesPerSecond, etaMs, OptionalDouble.empty());
        }

        /** The share of the catch-up done, 0..1, when known. */
        public OptionalDouble done() {
            if (bytesBehind.isEmpty() || peakBytesBehind.isEmpty() || peakBytesBehind.getAsLong() <= 0) {
                return OptionalDouble.empty();
            }
            return OptionalDouble.of(Math.max(0, 1 - bytesBehind.getAsLong() / (double) peakBytesBehind.getAsLong()));
        }
    }
}
