package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code rolling-pacing.csv}: one look of catch-up pacing at the broker of a rolling restart's turn, as
 * {@link PacingRow} is for a recovery round. Times are seconds from the rolling restart's first stop, as in
 * {@code rolling.csv}, so that a turn's looks read beside its stop, unfencing and return.
 *
 * @param key         the round
 * @param leg         the broker whose turn it was, the one the look is about
 * @param atS         seconds since the rolling restart's first stop
 * @param rateBytes   the follower rate set (bytes/s); null (an empty cell) when none was
 * @param bytesBehind the bytes it still had to fetch; null when unknown
 * @param reason      why pacing did what it did
 * @param problem     what went wrong, or empty
 * @param changes     what the look changed in the throttles, "; "-separated; empty when nothing
 */
public record RollingPacingRow(
        @JsonUnwrapped RoundKey key,
        int leg,
        @JsonProperty("at_s") double atS,
        @JsonProperty("rate_bytes") Long rateBytes,
        @JsonProperty("bytes_behind") Long bytesBehind,
        String reason,
        String problem,
        String changes) {}
