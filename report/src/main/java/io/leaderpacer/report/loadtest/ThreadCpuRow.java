package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code threads.csv}: the restarted broker's CPU use by what its threads do, each second from its
 * registration to a minute after its unfencing.
 *
 * @param key   the round
 * @param atS   the end of the interval, seconds since the round started
 * @param group what the threads do (compiler, gc, replica_fetcher, request_handler, network, metadata, other)
 * @param cores CPU use of the group's threads over the interval, in cores
 */
public record ThreadCpuRow(
        @JsonUnwrapped RoundKey key, @JsonProperty("at_s") double atS, String group, double cores) {}
