package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code pacing.csv}: one look of catch-up pacing at the restarted broker.
 *
 * @param key         the round
 * @param atS         seconds since the round started
 * @param rateBytes   the follower rate set (bytes/s); null (an empty cell) when none was
 * @param bytesBehind the bytes it still had to fetch; null when unknown
 * @param reason      why pacing did what it did
 * @param problem     what went wrong, or empty
 * @param changes     what the look changed in the throttles, "; "-separated; empty when nothing, null in files
 *                    written before run 26 (the column did not exist)
 */
public record PacingRow(
        @JsonUnwrapped RoundKey key,
        @JsonProperty("at_s") double atS,
        @JsonProperty("rate_bytes") Long rateBytes,
        @JsonProperty("bytes_behind") Long bytesBehind,
        String reason,
        String problem,
        String changes) {}
