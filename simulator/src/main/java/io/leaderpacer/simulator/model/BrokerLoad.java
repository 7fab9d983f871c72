package io.leaderpacer.simulator.model;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;

/**
 * Each broker as three resources (network-in, disk, request handling) and how busy it is:
 *
 * <pre>
 *   net(b)  = led produce bytes + in-sync follower fetch bytes + catch-up bytes
 *   disk(b) = net(b) + catchUpReadCost x catch-up bytes it serves as leader
 *             + cold(b) x (consumer bytes it serves as leader + catch-up bytes it serves)
 *   cold(b) = coldCacheReadCost x exp(-(t - unfenced(b)) / coldCacheDecaySeconds)   restarted broker only
 *   req(b)  = led produce requests + led consumer fetches
 *             + stormRequestsPerMove x leaderships gained in the storm window / window
 *   cpu(b)  = disk(b) + requestCostKB x req(b)                               requests and bytes on one CPU
 *   k(b)    = restartedBrokerCores / calibratedCores    once b is back from a restart, else 1
 *   base(b) = catchUpBaseCores / restartedBrokerCores   once b is back and while it has replicas to catch up, else 0
 *   offered(b) = max(net / networkIn, cpu / (k(b) x diskWrite) + base(b), req / (k(b) x requestHandling))
 *   u(b)    = min(maxUtilisation, offered(b))                                 the stationary queueing term
 *   backlog(b, t + dt) = max(0, backlog(b, t) + (offered(b) - 1) x dt)       seconds of work waiting
 * </pre>
 *
 * <p><b>Why a backlog.</b> The M/M/1 mean response time only exists below u = 1, and it takes a queue of service
 * time s about s / (1 - sqrt(u))^2 to approach it (over a minute at u = 0.99 with s = 1.5 ms), so the stationary
 * formula is capped at {@code maxUtilisation}. Work offered above capacity does not vanish: a broker serves requests
 * in arrival order and never drops them, so the excess is carried from one tick to the next as seconds of work
 * every new request waits behind, and drained by the spare capacity once the overload ends. It has no cap: a
 * broker overloaded for long enough makes a produce request wait past {@code request.timeout.ms}. A dead broker
 * loses its queue.
 *
 * <p><b>Cold cache.</b> A restarted host's page cache is empty, so reads miss it: consumers of the partitions the
 * broker leads and the catch-up it serves read from disk. Appends go to the page cache and are not slowed by a cold
 * cache directly; they are slowed only when those reads load the shared disk.
 *
 * <p><b>The restarted broker's CPU quota.</b> The load test caps the restarted broker (and only it) at a CPU quota,
 * and the CPU-bound capacities were fitted at one quota ({@code calibratedCores}): a run at another quota
 * ({@code restartedBrokerCores}) scales what that broker can append, read and handle by the ratio once it is back,
 * so the cap is an input the model predicts across, not a constant hidden in a fit. Linear in cores: a broker's own
 * start-up work (the JIT compiler, a fixed 0.2-0.3 core in its first seconds, evidence/startup-profile-probe) is
 * not modelled apart, so the ratio overstates what a second core buys at first.
 *
 * <p><b>A catch-up's base cost.</b> Measured, a restarted broker under a throttled catch-up used 0.16-0.26 core
 * where bytes and requests alone explain 0.05-0.20 (evidence/calibration/two-quota-fit): it polls fetch sessions
 * across every partition it follows and does its own start-up work whatever the rate. {@code catchUpBaseCores} is
 * that cost, in cores, taken from the restarted broker's CPU while it has replicas to catch up: a share
 * {@code catchUpBaseCores / restartedBrokerCores} of its CPU, so it weighs more on a smaller quota.
 *
 * <p><b>A quota's period.</b> With {@code cpuPeriodMs}, a broker back from its restart under less than a core stands at
 * its quota a share of the time, from the cores it spends appending catch-up bytes ({@link QuotaPeriod}):
 * {@link #standingShare}, read by the latency model.
 *
 * <p>And how much catch-up a lagging broker's fetchers could take next step: whatever is left below
 * {@code catchUpTargetUtilisation} on network-in and disk, less {@code requestCostKB} per request it handles
 * (where requests and bytes share one CPU). A replication throttle ({@link FollowerThrottle}) may hold them below it.
 */
public final class BrokerLoad {

    private final ModelParameters model;
    /** Utilisation per broker after the last {@link #update}. */
    private final double[] utilisation;
    /** Catch-up bandwidth each broker's lagging replicas could share in the next step, unthrottled. */
    private final double[] capacity;

    private final double netCapacity;
    private final double diskCapacity;
    private final double requestCapacity;
    private final double readCost;
    private final double target;
    private final double maxU;
    private final double stormRequestsPerSecondPerMove;
    /** Bytes per second of catch-up capacity one handled request per second costs (a shared CPU). */
    private final double requestCostBytes;
    /** Extra disk bytes per byte read from a just-restarted broker (a cold page cache). */
    private final double coldReadCost;
    /** Time constant (ms) of the page cache warming up. */
    private final double coldDecayMs;
    /** Offered load over capacity per broker after the last {@link #update} (unclamped, may exceed 1). */
    private final double[] offered;
    /** Seconds of work queued on each broker beyond what it could serve: carried from tick to tick, uncapped. */
    private final double[] backlogSeconds;
    /** Restarted broker's CPU-bound capacities over the calibrated ones, or 1 when no quota is given. */
    private final double restartedCpuScale;
    /** The cores a restarted broker's CPU-bound capacities stand for once back, or NaN when the model names none. */
    private final double restartedCores;
    /** {@code catchUpBaseCores} as a share of the restarted broker's CPU, or 0 when the model names no cores. */
    private final double restartedBaseShare;
    /** Per broker after the last {@link #update}: the busier of its CPU-bound resources, at most 1. */
    private final double[] cpuBusy;
    /** Per broker after the last {@link #update}: the share of the time it stands at its quota's period end. */
    private final double[] standing;
    /** The restarted broker's quota and its period. */
    private final QuotaPeriod period;
    /** The time of the last {@link #update}, or Long.MIN_VALUE: the backlog grows by the time since. */
    private long lastUpdateMs = Long.MIN_VALUE;

    public BrokerLoad(int brokers, ModelParameters model) {
        this.model = model;
        utilisation = new double[brokers];
        offered = new double[brokers];
        backlogSeconds = new double[brokers];
        capacity = new double[brokers];
        cpuBusy = new double[brokers];
        standing = new double[brokers];
        period = QuotaPeriod.of(model);
        netCapacity = model.networkInBytesPerSecond();
        diskCapacity = model.diskBytesPerSecond();
        requestCapacity = model.requestCapacity();
        readCost = model.get(ModelKey.CATCH_UP_READ_COST);
        target = model.get(ModelKey.CATCH_UP_TARGET_UTILISATION);
        maxU = model.get(ModelKey.MAX_UTILISATION);
        stormRequestsPerSecondPerMove =
                model.get(ModelKey.STORM_REQUESTS_PER_MOVE) / model.get(ModelKey.STORM_WINDOW_SECONDS);
        requestCostBytes = model.get(ModelKey.REQUEST_COST_KB) * 1000;
        coldReadCost = model.get(ModelKey.COLD_CACHE_READ_COST);
        coldDecayMs = model.get(ModelKey.COLD_CACHE_DECAY_SECONDS) * 1000;
        restartedCpuScale = cpuScale(model);
        restartedCores = restartedCores(model);
        restartedBaseShare = baseShare(model);
    }

    /** {@code catchUpBaseCores} over the cores the restarted broker's capacities stand for; 0 when none are named. */
    static double baseShare(ModelParameters model) {
        double cores = restartedCores(model);
        double base = model.get(ModelKey.CATCH_UP_BASE_CORES);
        return base > 0 && cores > 0 ? base / cores : 0;
    }

    /** {@code restartedBrokerCores}, else {@code calibratedCores} (0 = as calibrated), else NaN. */
    static double restartedCores(ModelParameters model) {
        double restarted = model.get(ModelKey.RESTARTED_BROKER_CORES);
        double calibrated = model.get(ModelKey.CALIBRATED_CORES);
        return restarted > 0 ? restarted : calibrated > 0 ? calibrated : Double.NaN;
    }

    /** {@code restartedBrokerCores / calibratedCores}, or 1 unless both are given. */
    static double cpuScale(ModelParameters model) {
        double calibrated = model.get(ModelKey.CALIBRATED_CORES);
        double restarted = model.get(ModelKey.RESTARTED_BROKER_CORES);
        return calibrated > 0 && restarted > 0 ? restarted / calibrated : 1;
    }

    public ModelParameters model() {
        return model;
    }

    /**
     * Recomputes every broker's utilisation from the current state, and the catch-up capacity for
     * the next step.
     */
    public void update(ModelCluster cluster, Replication replication, LeadershipGains gains, long nowMs) {
        double dtSeconds = lastUpdateMs == Long.MIN_VALUE ? 0 : Math.max(0, nowMs - lastUpdateMs) / 1000.0;
        lastUpdateMs = nowMs;
        for (int b = 0; b < utilisation.length; b++) {
            if (!cluster.isAlive(b)) {
                utilisation[b] = 0;
                offered[b] = 0;
                backlogSeconds[b] = 0;
                capacity[b] = 0;
                cpuBusy[b] = 0;
                standing[b] = 0;
                continue;
            }
            double steady = cluster.leadBytes(b) + replication.inSyncFollowBytes(b);
            double cold = coldFactor(cluster, b, nowMs);
            double served = readCost * replication.catchUpServed(b)
                    + cold * (cluster.leadConsumerBytes(b) + replication.catchUpServed(b));
            double net = steady + replication.catchUpIn(b);
            double disk = net + served;
            double requests = (cluster.leadMilliRequests(b) + cluster.leadConsumerMilliRequests(b)) / 1000.0
                    + stormRequestsPerSecondPerMove * gains.inWindow(b, nowMs);
            // Where requests and bytes share one CPU (requestCostKB > 0), the requests take their share of the same
            // capacity the catch-up grant below leaves them: the broker is as busy as its fetchers make it.
            double cpu = disk + requestCostBytes * requests;
            boolean back = cluster.restartUnfencedAtMs(b) != Long.MIN_VALUE;
            double k = back ? restartedCpuScale : 1;
            double base = back && replication.laggingCount(b) > 0 ? restartedBaseShare : 0;
            double cpuOffered = Math.max(cpu / (k * diskCapacity) + base, requests / (k * requestCapacity));
            cpuBusy[b] = Math.min(1, cpuOffered);
            standing[b] =
                    back ? period.standingShare(replication.catchUpIn(b) / (k * diskCapacity) * restartedCores) : 0;
            double u = Math.max(net / netCapacity, cpuOffered);
            offered[b] = u;
            utilisation[b] = Math.min(maxU, u);
            backlogSeconds[b] = Math.max(0, backlogSeconds[b] + (u - 1) * dtSeconds);

            double room = Math.min(target * netCapacity - steady, (target - base) * k * diskCapacity - steady - served);
            double g = Math.max(0, room - requestCostBytes * requests);
            capacity[b] = cluster.isFetching(b) ? g : 0;
        }
    }

    /** The cold-cache read cost of broker {@code b} now: 0 unless it was restarted and unfenced. */
    private double coldFactor(ModelCluster cluster, int b, long nowMs) {
        long unfenced = cluster.restartUnfencedAtMs(b);
        if (coldReadCost <= 0 || unfenced == Long.MIN_VALUE || nowMs < unfenced) {
            return 0;
        }
        return coldReadCost * StrictMath.exp(-(nowMs - unfenced) / coldDecayMs);
    }

    /** Utilisation for the stationary queueing term: at most {@code maxUtilisation}. */
    public double utilisation(int b) {
        return utilisation[b];
    }

    /**
     * The CPU a broker back from its restart uses now (cores): the busier of its CPU-bound resources (bytes appended
     * and read, requests) times the cores they stand for ({@code restartedBrokerCores}); NaN when the model names no
     * cores. What the load test measures from the broker's cgroup, the same way: cores in use, at most its quota.
     */
    public double restartedBusyCores(int b) {
        return cpuBusy[b] * restartedCores;
    }

    /** The share of the time broker {@code b} stands at its quota's period end ({@link QuotaPeriod}), 0 without one. */
    public double standingShare(int b) {
        return standing[b];
    }

    /** What a write that needs broker {@code b} while it stands waits, on average (ms). */
    public double standingWaitMs(int b) {
        return standing[b] > 0 ? period.standingWaitMs() : 0;
    }

    /** Offered load over capacity of the busiest resource: above 1 the broker is overloaded and its backlog grows. */
    public double offered(int b) {
        return offered[b];
    }

    /** How long (ms) a request arriving now waits behind the work the broker could not serve yet. */
    public double backlogMs(int b) {
        return backlogSeconds[b] * 1000;
    }

    /** What each broker's fetchers could take for catch-up in the next replication step, unthrottled (bytes/s). */
    public double[] catchUpCapacity() {
        return capacity;
    }
}
