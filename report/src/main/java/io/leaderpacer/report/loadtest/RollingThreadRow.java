package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code rolling-threads.csv}: the CPU use by thread group of the broker of a rolling restart's turn, each
 * second from its registration to the turn's end, as {@link ThreadCpuRow} is for a recovery round; a second's groups
 * summed are the broker's CPU use. Times are seconds from the rolling restart's first stop, as in {@code rolling.csv}.
 *
 * @param key   the round
 * @param leg   the broker whose turn it was
 * @param atS   the end of the interval, seconds since the rolling restart's first stop
 * @param group what the threads do (compiler, gc, replica_fetcher, request_handler, network, metadata, other)
 * @param cores CPU use of the group's threads over the interval, in cores
 */
public record RollingThreadRow(
        @JsonUnwrapped RoundKey key,
        int leg,
        @JsonProperty("at_s") double atS,
        String group,
        double cores) {}
