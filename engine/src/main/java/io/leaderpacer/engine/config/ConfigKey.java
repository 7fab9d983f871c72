package io.leaderpacer.engine.config;

import java.util.List;

/**
 * Every key the policy reads, with its default, its allowed range and its meaning: one place
 * that the validator, {@code pacer config --describe} and the reference configuration share.
 */
public enum ConfigKey implements TypedKey {
    CHECK_INTERVAL_SECONDS(
            "leader.imbalance.check.interval.seconds",
            "300",
            "a whole number of seconds >= 1",
            "Period of the preferred-leader task when the previous run did not hit the cap."),
    ALGORITHM(
            "leader.imbalance.election.algorithm",
            "immediate",
            "one of: immediate, wait-for-sync",
            "immediate = Kafka's behaviour today; wait-for-sync = gate brokers still catching up and round-robin across the rest."),
    THRESHOLD_PERCENT(
            "leader.imbalance.election.wait.for.sync.threshold.percent",
            "0",
            "a number between 0 and 100 (inclusive)",
            "wait-for-sync: a broker is gated while more than this percentage of its preferred partitions are out of its ISR (0 = any)."),
    MAX_WAIT_MS(
            "leader.imbalance.election.wait.for.sync.max.wait.ms",
            "1800000",
            "a whole number of milliseconds >= 0 (0 = never escape)",
            "wait-for-sync: a broker gated for this long while active is released until it first passes the gate on its own."),
    MAX_PER_RUN(
            "leader.imbalance.election.max.per.run",
            "1000",
            "a whole number between 1 and 2147483647",
            "Most elections one run of the task makes; a run that reaches it reports more work."),
    THROTTLE_INTERVAL_MS(
            "leader.imbalance.election.throttle.interval.ms",
            "0",
            "a whole number of milliseconds >= 0 (0 = immediate reschedule)",
            "Delay before the next run after a run that hit the cap; 0 keeps Kafka's immediate reschedule."),
    DEPRIORITIZED_LIST(
            "preferred.leader.deprioritized.list",
            "",
            "a comma-separated list of broker ids >= 0, or empty",
            "KIP-491: brokers moved to the end of every replica order when choosing a leader; last, never excluded."),
    GATE_DENOMINATOR(
            "leader.imbalance.election.wait.for.sync.denominator",
            "all-preferred",
            "one of: all-preferred, imbalanced-only",
            "Leader Pacer variant: the gate's ratio over all of a broker's preferred partitions (default) or only the imbalanced ones (KIP-1358's literal pseudo-code)."),
    MAX_WAIT_CLOCK(
            "leader.imbalance.election.wait.for.sync.max.wait.clock",
            "while-active",
            "one of: while-active, wall",
            "Leader Pacer variant: the max-wait clock runs only while the broker is active (default) or from the first over-threshold run (literal reading)."),
    RECHECK_INTERVAL_MS(
            "leader.imbalance.election.wait.for.sync.recheck.interval.ms",
            "0",
            "a whole number of milliseconds >= 0 (0 = off)",
            "wait-for-sync, Leader Pacer extension: while a broker is gated, the next run comes after this delay when it is shorter than the check interval, so release follows the broker's crossing of the threshold within it (0 = the check interval, KIP-1358's schedule)."),
    HYSTERESIS_MIN_MS(
            "leader.imbalance.election.wait.for.sync.hysteresis.min.ms",
            "0",
            "a whole number of milliseconds >= 0 (0 = the run count alone)",
            "wait-for-sync, Leader Pacer extension: a gated broker back under the threshold is released after 2 consecutive clear runs that also span at least this long, so flap protection does not shrink with a short re-check interval (0 = KIP-1358's 2 runs alone)."),
    CATCH_UP_PACING(
            "leader.imbalance.catch.up.pacing",
            "off",
            "one of: off, static, adaptive",
            "Leader Pacer extension (agent): throttle a recovering broker's out-of-sync replicas with Kafka's follower replication throttle, so that its in-sync replicas stay fast; static = at the rate key's value, adaptive = from it, up while the canary's P99 stays near steady, halved when it does not (off = never set a throttle)."),
    CATCH_UP_RATE_BYTES(
            "leader.imbalance.catch.up.pacing.rate.bytes",
            "20971520",
            "a whole number of bytes per second >= 1024",
            "Catch-up pacing: the rate a recovering broker is throttled at (static), or starts at (adaptive), in bytes per second; held between the min and max rates."),
    CATCH_UP_MIN_RATE_BYTES(
            "leader.imbalance.catch.up.pacing.min.rate.bytes",
            "5242880",
            "a whole number of bytes per second >= 1024",
            "Catch-up pacing, adaptive: the lowest rate it cuts to, and the step it grows by per interval, in bytes per second."),
    CATCH_UP_MAX_RATE_BYTES(
            "leader.imbalance.catch.up.pacing.max.rate.bytes",
            "209715200",
            "a whole number of bytes per second >= 1024",
            "Catch-up pacing: the highest rate the adaptive mode or the stall detector sets, in bytes per second (the min rate, if that is larger); a catch-up stalled at it is left unthrottled."),
    CATCH_UP_TARGET_RATIO(
            "leader.imbalance.catch.up.pacing.target.p99.ratio",
            "1.5",
            "a number >= 1",
            "Catch-up pacing, adaptive: the canary's P99 over its steady P99 at or under which the rate grows; above it the rate is halved."),
    CATCH_UP_INTERVAL_MS(
            "leader.imbalance.catch.up.pacing.interval.ms",
            "2000",
            "a whole number of milliseconds >= 100",
            "Catch-up pacing: how often a recovering broker's catch-up is looked at and its rate decided."),
    CATCH_UP_MAX_WAIT_MS(
            "leader.imbalance.catch.up.pacing.max.wait.ms",
            "1800000",
            "a whole number of milliseconds >= 0 (0 = never escape)",
            "Catch-up pacing: a broker paced for this long is no longer throttled until it is back in every ISR."),
    CATCH_UP_UNTHROTTLED_LAG_BYTES(
            "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
            "1048576",
            "a whole number of bytes >= 0 (0 = every out-of-sync replica is throttled)",
            "Catch-up pacing: an out-of-sync replica of a recovering broker that is up and fewer than this many bytes behind its leader is left out of the throttle. Why: once the broker is unfenced, Kafka's leader holds the high watermark for a replica that reached its log end within replica.lag.time.max.ms, in the ISR or not, so a throttle that withholds that replica's fetches holds acks=all writes up to that long; the default is one fetch's worth (replica.fetch.max.bytes' default)."),
    CATCH_UP_LAG_TIME_MAX_MS(
            "leader.imbalance.catch.up.pacing.lag.time.max.ms",
            "-1",
            "a whole number of milliseconds >= -1 (-1 = the leaders' own replica.lag.time.max.ms, read from the brokers; 0 = throttle at once)",
            "Catch-up pacing: a broker that went down less than this long ago is not throttled. Why: its leaders still count it caught up from its last fetch before it went down (for their replica.lag.time.max.ms, 30 s by default), out of the ISR or not, and hold their high watermark for each of its fetches (Kafka's Partition.maybeIncrementLeaderHW, KAFKA-15021): a throttled fetch then holds every acks=all write to those partitions. A restart within that time (a rolling restart's) catches up unthrottled until it has passed."),
    CATCH_UP_DEADLINE_MS(
            "leader.imbalance.catch.up.pacing.deadline.ms",
            "0",
            "a whole number of milliseconds >= 0 (0 = none)",
            "Catch-up pacing: a recovering broker leads its preferred partitions again within this long of its unfencing. Pacing computes the rate that needs from its preferred replicas' bytes behind, what flows into them and the time left (less the time the election runs take to hand them back), never paces below it, and lets the producers' signal only raise the rate above it; a deadline that the max rate cannot meet leaves the broker unthrottled. With preferred.first the deadline is about its preferred replicas only, which then go first."),
    CATCH_UP_PREFERRED_FIRST(
            "leader.imbalance.catch.up.pacing.preferred.first",
            "false",
            "true or false",
            "Catch-up pacing: the replicas a recovering broker is the preferred leader of catch up first, at the pacing rate (a leader-side replication throttle on their leaders), while its other out-of-sync replicas wait at the min rate (the follower-side one); once the first are back in their ISR, the others get the pacing rate. Why: leadership can come back only to replicas in sync, so this brings it back after about a third of the catch-up instead of at its end, at the same load on the broker (false = every out-of-sync replica at the pacing rate).");

    private final KeySpec spec;

    ConfigKey(String key, String defaultValue, String allowed, String doc) {
        this.spec = new KeySpec(key, defaultValue, allowed, doc);
    }

    @Override
    public KeySpec spec() {
        return spec;
    }

    /** The key for a name, or {@code null}. */
    public static ConfigKey forName(String name) {
        return NamedKey.forName(ConfigKey.class, name).orElse(null);
    }

    /** All key names, in declaration order. */
    public static List<String> names() {
        return NamedKey.names(ConfigKey.class);
    }
}
