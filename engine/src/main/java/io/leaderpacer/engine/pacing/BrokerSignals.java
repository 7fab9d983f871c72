package io.leaderpacer.engine.pacing;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What the agent observed of one broker at one look.
 *
 * @param broker      its id
 * @param state       inactive, catching up or in sync
 * @param bytesBehind over the replicas it hosts and does not lead, the bytes their leaders hold beyond it (empty
 *                    when unknown: it did not answer, or it is inactive)
 * @param canaryRatio the canary's P99 over its steady P99 on partitions where this broker is an in-sync follower
 *                    (empty when the canary has no such partition or no recent sample)
 * @param flow        how fast its out-of-sync replicas fetched, and their leaders grew, since the previous look
 * @param foreignRateBytes the replication rate in force on its catch-up when it is someone else's (a per-broker or
 *                    cluster-default follower rate pacing did not set and does not change); empty when the rate in
 *                    force is pacing's own. Why the rule needs it: under someone else's rate, pacing's decided rate is
 *                    not what holds the catch-up, and a stall under it cannot be cured by raising pacing's
 * @param caughtUpUntilMs until when (on the decision's clock) its leaders may still count it caught up from before it
 *                    went down: its last caught-up fetch plus the leaders' {@code replica.lag.time.max.ms}, as far as the
 *                    agent knows them; {@link Long#MIN_VALUE} when they do not (it did not go down, or long ago)
 * @param preferred   its replicas of the partitions it is the preferred leader of, out of their ISR: what a
 *                    deadline for it to lead them again is about
 */
public record BrokerSignals(
        int broker,
        CatchUpState state,
        OptionalLong bytesBehind,
        OptionalDouble canaryRatio,
        Flow flow,
        OptionalLong foreignRateBytes,
        long caughtUpUntilMs,
        Preferred preferred) {

    /**
     * A broker's out-of-sync replicas of the partitions it is the preferred leader of, and how many of those partitions
     * it does not lead yet (in sync or not): what a deadline must leave the election runs time to hand back, since a
     * gate withholds in-sync ones too until its release.
     *
     * @param partitions           how many are out of sync
     * @param notLed               how many it does not lead (at least {@code partitions}: a replica out of sync leads
     *                             nothing)
     * @param bytesBehind          the bytes their leaders hold beyond them, where known
     * @param inflowBytesPerSecond what flows into those partitions, where measured
     */
    public record Preferred(int partitions, int notLed, OptionalLong bytesBehind, OptionalDouble inflowBytesPerSecond) {
        public static final Preferred UNKNOWN = new Preferred(0, OptionalLong.empty(), OptionalDouble.empty());

        public Preferred {
            Objects.requireNonNull(bytesBehind, "bytesBehind");
            Objects.requireNonNull(inflowBytesPerSecond, "inflowBytesPerSecond");
            notLed = Math.max(notLed, partitions);
        }

        /** The same, with how many it does not lead. */
        public Preferred withNotLed(int n) {
            return new Preferred(partitions, n, bytesBehind, inflowBytesPerSecond);
        }

        /** Where only the out-of-sync ones are known: those are the ones not led. */
        public Preferred(int partitions, OptionalLong bytesBehind, OptionalDouble inflowBytesPerSecond) {
            this(partitions, partitions, bytesBehind, inflowBytesPerSecond);
        }
    }

    /**
     * Over the replicas a broker hosts out of their ISR, since the previous look: the bytes per second they fetched
     * (their growth) and the bytes per second their leaders took in (the inflow they must also fetch). Bytes behind
     * fall at the difference. Why both: a catch-up that does not fall while it fetches at its throttle's rate is held
     * by the throttle (its rate is at or under the inflow); one that does not fall while it fetches less is held by
     * something else, which a higher rate would not help.
     *
     * <p>{@code chargedBytesPerSecond}: the bytes per second of the broker's <em>in-sync</em> replicas that Kafka counts
     * towards the same replication quota as the catch-up (a listed partition's bytes count whether its follower is in
     * sync or not: {@code KafkaApis.sizeOfThrottledPartitions}, {@code ReplicaFetcherThread}); the catch-up gets what
     * they leave of the rate in force.
     *
     * @param fetchBytesPerSecond   empty when not measured (the first look, or a broker that did not answer)
     * @param inflowBytesPerSecond  empty when not measured
     * @param chargedBytesPerSecond empty when not measured; 0 when no in-sync replica shares the quota
     */
    public record Flow(
            OptionalDouble fetchBytesPerSecond,
            OptionalDouble inflowBytesPerSecond,
            OptionalDouble chargedBytesPerSecond) {
        public static final Flow UNKNOWN = new Flow(OptionalDouble.empty(), OptionalDouble.empty());

        public Flow {
            Objects.requireNonNull(fetchBytesPerSecond, "fetchBytesPerSecond");
            Objects.requireNonNull(inflowBytesPerSecond, "inflowBytesPerSecond");
            Objects.requireNonNull(chargedBytesPerSecond, "chargedBytesPerSecond");
        }

        /** Flows with no in-sync bytes measured. */
        public Flow(OptionalDouble fetchBytesPerSecond, OptionalDouble inflowBytesPerSecond) {
            this(fetchBytesPerSecond, inflowBytesPerSecond, OptionalDouble.empty());
        }

        public static Flow of(double fetchBytesPerSecond, double inflowBytesPerSecond) {
            return new Flow(OptionalDouble.of(fetchBytesPerSecond), OptionalDouble.of(inflowBytesPerSecond));
        }

        public static Flow of(double fetchBytesPerSecond, double inflowBytesPerSecond, double chargedBytesPerSecond) {
            return new Flow(
                    OptionalDouble.of(fetchBytesPerSecond),
                    OptionalDouble.of(inflowBytesPerSecond),
                    OptionalDouble.of(chargedBytesPerSecond));
        }

        /** The in-sync bytes per second measured on the quota, 0 when not measured. */
        public double charged() {
            return chargedBytesPerSecond.orElse(0);
        }

        /** Whether both were measured. */
        public boolean known() {
            return fetchBytesPerSecond.isPresent() && inflowBytesPerSecond.isPresent();
        }
    }

    public BrokerSignals {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(bytesBehind, "bytesBehind");
        Objects.requireNonNull(canaryRatio, "canaryRatio");
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(foreignRateBytes, "foreignRateBytes");
        Objects.requireNonNull(preferred, "preferred");
    }

    /** Signals with its preferred replicas unknown. */
    public BrokerSignals(
            int broker,
            CatchUpState state,
            OptionalLong bytesBehind,
            OptionalDouble canaryRatio,
            Flow flow,
            OptionalLong foreignRateBytes,
            long caughtUpUntilMs) {
        this(broker, state, bytesBehind, canaryRatio, flow, foreignRateBytes, caughtUpUntilMs, Preferred.UNKNOWN);
    }

    /** Signals of a broker whose catch-up is under pacing's own rate. */
    public BrokerSignals(
            int broker, CatchUpState state, OptionalLong bytesBehind, OptionalDouble canaryRatio, Flow flow) {
        this(broker, state, bytesBehind, canaryRatio, flow, OptionalLong.empty());
    }

    /** Signals of a broker its leaders do not count as caught up from before. */
    public BrokerSignals(
            int broker,
            CatchUpState state,
            OptionalLong bytesBehind,
            OptionalDouble canaryRatio,
            Flow flow,
            OptionalLong foreignRateBytes) {
        this(broker, state, bytesBehind, canaryRatio, flow, foreignRateBytes, Long.MIN_VALUE);
    }

    /** The same signals, its leaders counting it caught up until {@code untilMs}. */
    public BrokerSignals caughtUpUntil(long untilMs) {
        return new BrokerSignals(broker, state, bytesBehind, canaryRatio, flow, foreignRateBytes, untilMs, preferred);
    }

    /** The same signals with its preferred replicas as measured. */
    public BrokerSignals withPreferred(Preferred p) {
        return new BrokerSignals(broker, state, bytesBehind, canaryRatio, flow, foreignRateBytes, caughtUpUntilMs, p);
    }

    /** Signals whose flow was not measured. */
    public BrokerSignals(int broker, CatchUpState state, OptionalLong bytesBehind, OptionalDouble canaryRatio) {
        this(broker, state, bytesBehind, canaryRatio, Flow.UNKNOWN);
    }

    public static BrokerSignals inSync(int broker) {
        return new BrokerSignals(broker, CatchUpState.IN_SYNC, OptionalLong.empty(), OptionalDouble.empty());
    }

    public static BrokerSignals inactive(int broker) {
        return new BrokerSignals(broker, CatchUpState.INACTIVE, OptionalLong.empty(), OptionalDouble.empty());
    }

    public static BrokerSignals catchingUp(int broker, long bytesBehind, OptionalDouble canaryRatio) {
        return new BrokerSignals(broker, CatchUpState.CATCHING_UP, OptionalLong.of(bytesBehind), canaryRatio);
    }
}
