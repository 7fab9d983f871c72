package io.leaderpacer.report.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A line of {@code rounds.csv}: the figures of one round (times in seconds since the round started, latencies in
 * ms; an empty cell where the round has no value, e.g. no gate release under {@code immediate}).
 *
 * @param key        the round
 * @param latency    the produce latencies and failed sends
 * @param timeline   when the broker stopped, restarted, was unfenced, and the window
 * @param recovery   how long leadership took to come back
 * @param reentry    the ISR re-entries of its preferred partitions
 * @param cpu        how the broker's CPU was saturated and how busy it was
 */
public record RoundRow(
        @JsonUnwrapped RoundKey key,
        @JsonUnwrapped Latency latency,
        @JsonUnwrapped Timeline timeline,
        @JsonUnwrapped Recovery recovery,
        @JsonUnwrapped Reentry reentry,
        @JsonUnwrapped CpuSaturation cpu) {

    /**
     * Produce latency and failed sends.
     *
     * @param steady   P99s of the steady phase
     * @param window   P99s over the window after unfencing
     * @param timeouts sends that timed out
     * @param failed   failed sends of every kind
     */
    public record Latency(
            @JsonUnwrapped SteadyP99 steady, @JsonUnwrapped WindowP99 window, long timeouts, long failed) {}

    /**
     * P99s (ms) of the steady phase.
     *
     * @param allMs       every partition
     * @param protectedMs the partitions whose preferred leader is the restarted broker
     */
    public record SteadyP99(
            @JsonProperty("steady_p99_ms") double allMs,
            @JsonProperty("steady_p99_protected_ms") double protectedMs) {}

    /**
     * P99s (ms) over the window, by class and by the restarted broker's role in each partition.
     *
     * @param allMs            every partition
     * @param protectedMs      the partitions whose preferred leader is the restarted broker
     * @param otherMs          every other partition
     * @param leaderMs         the partitions it led when the send was made
     * @param inSyncFollowerMs those it followed in sync
     * @param notInIsrMs       those whose ISR it was out of
     */
    public record WindowP99(
            @JsonProperty("window_p99_ms") double allMs,
            @JsonProperty("window_p99_protected_ms") double protectedMs,
            @JsonProperty("window_p99_other_ms") double otherMs,
            @JsonProperty("window_p99_leader_ms") double leaderMs,
            @JsonProperty("window_p99_in_sync_follower_ms") double inSyncFollowerMs,
            @JsonProperty("window_p99_not_in_isr_ms") double notInIsrMs) {}

    /**
     * The round's clock (s since it started).
     *
     * @param stoppedAtS   when the broker was stopped
     * @param restartedAtS when it was started again
     * @param unfencedAtS  when the controller unfenced it: the window starts here
     * @param windowS      the window's length
     * @param endedAtS     when the round stopped measuring
     */
    public record Timeline(
            @JsonProperty("stopped_at_s") double stoppedAtS,
            @JsonProperty("restarted_at_s") double restartedAtS,
            @JsonProperty("unfenced_at_s") double unfencedAtS,
            @JsonProperty("window_s") double windowS,
            @JsonProperty("ended_at_s") double endedAtS) {}

    /**
     * Leadership's return (s after unfencing).
     *
     * @param recoveryS       until the broker led at least 99 % of its preferred partitions again; empty if never
     * @param gateReleaseS    until the gate first left it ungated; empty without one
     * @param batchesToBroker the agent runs that moved leadership to it
     */
    public record Recovery(
            @JsonProperty("recovery_s") double recoveryS,
            @JsonProperty("gate_release_s") double gateReleaseS,
            @JsonProperty("batches_to_broker") int batchesToBroker) {}

    /**
     * The ISR re-entries of the broker's preferred partitions (s after unfencing).
     *
     * @param firstS    the first
     * @param p50S      the median
     * @param p90S      the 90th percentile
     * @param lastS     the last: the physical limit of recovery
     * @param preferred partitions whose preferred replica is the broker
     * @param reentered of them, those that re-entered its ISR in the round
     */
    public record Reentry(
            @JsonProperty("reentry_first_s") double firstS,
            @JsonProperty("reentry_p50_s") double p50S,
            @JsonProperty("reentry_p90_s") double p90S,
            @JsonProperty("reentry_last_s") double lastS,
            int preferred,
            int reentered) {}

    /**
     * How the broker's CPU was saturated (the component is not named after the {@code saturation} column, which is
     * this record's {@code mode}: an unwrapped record's name must not be one of its columns).
     *
     * @param mode              what ran: e.g. "cgroup v1 cpu.cfs_quota_us", "none"
     * @param capCores          the quota in cores; empty without one
     * @param capVisibleInCgroup whether the quota's group was seen in the process's cgroup file
     * @param catchUpBusyCores  its average CPU use from unfencing to its last ISR re-entry
     * @param steadyCores       its average CPU use in the steady phase, uncapped
     * @param afterCatchUpCores its average CPU use from its last ISR re-entry to the end of the round
     */
    public record CpuSaturation(
            @JsonProperty("saturation") String mode,
            @JsonProperty("cap_cores") double capCores,
            @JsonProperty("cap_visible_in_cgroup") boolean capVisibleInCgroup,
            @JsonProperty("catch_up_busy_cores") double catchUpBusyCores,
            @JsonProperty("steady_cores") double steadyCores,
            @JsonProperty("after_catch_up_cores") double afterCatchUpCores) {}
}
