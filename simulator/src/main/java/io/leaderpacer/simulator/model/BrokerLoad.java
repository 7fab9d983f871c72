package io.leaderpacer.simulator.model;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;

/**
 * Each broker as three resources (network-in, disk, request handling) and how busy it is:
 *
 * <pre>
 *   net(b)  = led produce bytes + in-sync follower fetch bytes + catch-up bytes
 *   disk(b) = net(b) + catchUpReadCost x catch-up bytes it serves as leader
 *   req(b)  = led produce requests + led consumer fetches
 *             + stormRequestsPerMove x leaderships gained in the storm window / window
 *   u(b)    = min(maxUtilisation, max(net / networkIn, disk / diskWrite, req / requestHandling))
 * </pre>
 *
 * and how much catch-up a lagging broker's fetchers may take next step: whatever is left below
 * {@code catchUpTargetUtilisation} on network-in and disk, less {@code requestCostKB} per request it handles
 * (where requests and bytes share one CPU), capped by the replication throttle.
 */
public final class BrokerLoad {

    private final ModelParameters model;
    /** Utilisation per broker after the last {@link #update}. */
    private final double[] utilisation;
    /** Catch-up bandwidth each broker's lagging replicas may share in the next step. */
    private final double[] grant;
    private final double netCapacity;
    private final double diskCapacity;
    private final double requestCapacity;
    private final double readCost;
    private final double target;
    private final double maxU;
    private final double stormRequestsPerSecondPerMove;
    /** Bytes per second of catch-up capacity one handled request per second costs (a shared CPU). */
    private final double requestCostBytes;

    public BrokerLoad(int brokers, ModelParameters model) {
        this.model = model;
        utilisation = new double[brokers];
        grant = new double[brokers];
        netCapacity = model.networkInBytesPerSecond();
        diskCapacity = model.diskBytesPerSecond();
        requestCapacity = model.requestCapacity();
        readCost = model.get(ModelKey.CATCH_UP_READ_COST);
        target = model.get(ModelKey.CATCH_UP_TARGET_UTILISATION);
        maxU = model.get(ModelKey.MAX_UTILISATION);
        stormRequestsPerSecondPerMove = model.get(ModelKey.STORM_REQUESTS_PER_MOVE)
                / model.get(ModelKey.STORM_WINDOW_SECONDS);
        requestCostBytes = model.get(ModelKey.REQUEST_COST_KB) * 1000;
    }

    public ModelParameters model() {
        return model;
    }

    /**
     * Recomputes every broker's utilisation from the current state, and the catch-up grants for
     * the next step.
     *
     * @param followerThrottleBytesPerSecond replication throttle on catch-up; 0 = none
     */
    public void update(ClusterState cluster, Replication replication, LeadershipGains gains, long nowMs,
                       double followerThrottleBytesPerSecond) {
        for (int b = 0; b < utilisation.length; b++) {
            if (!cluster.isAlive(b)) {
                utilisation[b] = 0;
                grant[b] = 0;
                continue;
            }
            double steady = cluster.leadBytes(b) + replication.inSyncFollowBytes(b);
            double served = readCost * replication.catchUpServed(b);
            double net = steady + replication.catchUpIn(b);
            double disk = net + served;
            double requests = (cluster.leadMilliRequests(b) + cluster.leadConsumerMilliRequests(b)) / 1000.0
                    + stormRequestsPerSecondPerMove * gains.inWindow(b, nowMs);
            double u = Math.max(net / netCapacity, Math.max(disk / diskCapacity, requests / requestCapacity));
            utilisation[b] = Math.min(maxU, u);

            double room = Math.min(target * netCapacity - steady, target * diskCapacity - steady - served);
            double g = Math.max(0, room - requestCostBytes * requests);
            if (followerThrottleBytesPerSecond > 0) {
                g = Math.min(g, followerThrottleBytesPerSecond);
            }
            grant[b] = cluster.isFetching(b) ? g : 0;
        }
    }

    public double utilisation(int b) {
        return utilisation[b];
    }

    /** The catch-up grants (bytes per second per broker) for the next replication step. */
    public double[] grants() {
        return grant;
    }
}
