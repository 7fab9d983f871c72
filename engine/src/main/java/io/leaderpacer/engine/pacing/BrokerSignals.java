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
 */
public record BrokerSignals(
        int broker, CatchUpState state, OptionalLong bytesBehind, OptionalDouble canaryRatio, Flow flow) {

    /**
     * Over the replicas a broker hosts out of their ISR, since the previous look: the bytes per second they fetched
     * (their growth) and the bytes per second their leaders took in (the inflow they must also fetch). Bytes behind
     * fall at the difference. Why both: a catch-up that does not fall while it fetches at its throttle's rate is held
     * by the throttle (its rate is at or under the inflow); one that does not fall while it fetches less is held by
     * something else, which a higher rate would not help.
     *
     * @param fetchBytesPerSecond  empty when not measured (the first look, or a broker that did not answer)
     * @param inflowBytesPerSecond empty when not measured
     */
    public record Flow(OptionalDouble fetchBytesPerSecond, OptionalDouble inflowBytesPerSecond) {
        public static final Flow UNKNOWN = new Flow(OptionalDouble.empty(), OptionalDouble.empty());

        public Flow {
            Objects.requireNonNull(fetchBytesPerSecond, "fetchBytesPerSecond");
            Objects.requireNonNull(inflowBytesPerSecond, "inflowBytesPerSecond");
        }

        public static Flow of(double fetchBytesPerSecond, double inflowBytesPerSecond) {
            return new Flow(OptionalDouble.of(fetchBytesPerSecond), OptionalDouble.of(inflowBytesPerSecond));
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
