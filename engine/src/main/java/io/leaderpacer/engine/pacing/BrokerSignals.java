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
 */
public record BrokerSignals(int broker, CatchUpState state, OptionalLong bytesBehind, OptionalDouble canaryRatio) {

    public BrokerSignals {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(bytesBehind, "bytesBehind");
        Objects.requireNonNull(canaryRatio, "canaryRatio");
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
