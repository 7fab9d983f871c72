package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.model.RestartedRole;

/**
 * What producers of each class and each broker felt, beside the cluster-wide P99 KIP-1358 asks for.
 *
 * <p>Why: one broker in a hundred cannot move a cluster-wide P99, so a policy can pass KIP-1358's criterion while the
 * producers of the partitions that returned to the restarted broker see a spike. These figures show it.
 *
 * @param steadyP99ProtectedMs P99 before the first event, partitions whose preferred leader is a restarted broker
 * @param windowP99ProtectedMs the same over the recovery window
 * @param steadyP99OtherMs     P99 before the first event, every other partition
 * @param windowP99OtherMs     the same over the recovery window
 * @param brokerP99Ms          per leader broker, {steady, window} P99 (empty when the cluster is too large to keep)
 * @param gateReleaseMs        when the gate released the restarted broker, ms after the unfencing, or -1
 * @param reentries            the ISR re-entry timeline of the restarted broker's preferred partitions
 * @param windowP99ByRoleMs    window P99 of every partition by the role a restarted broker plays in it, indexed by
 *                             {@link RestartedRole#ordinal()} (NaN for a role no request met), as the load test
 *                             splits it
 * @param catchUpBusyCores     the first restarted broker's CPU use (cores) from its unfencing to its last preferred
 *                             ISR re-entry ({@link CatchUpCpu}); NaN when it has none or the model names no cores
 */
public record ClassFigures(
        double steadyP99ProtectedMs,
        double windowP99ProtectedMs,
        double steadyP99OtherMs,
        double windowP99OtherMs,
        double[][] brokerP99Ms,
        long gateReleaseMs,
        Reentries reentries,
        double[] windowP99ByRoleMs,
        double catchUpBusyCores) {

    /** The window P99 of the sends whose partition had a restarted broker in this role; NaN when none did. */
    public double windowP99Ms(RestartedRole role) {
        return windowP99ByRoleMs[role.ordinal()];
    }

    public double protectedRatio() {
        return windowP99ProtectedMs / steadyP99ProtectedMs;
    }

    public double otherRatio() {
        return windowP99OtherMs / steadyP99OtherMs;
    }

    /** A broker's window P99 over its steady P99; NaN when unknown. */
    public double brokerRatio(int b) {
        return b < brokerP99Ms.length ? brokerP99Ms[b][1] / brokerP99Ms[b][0] : Double.NaN;
    }
}
