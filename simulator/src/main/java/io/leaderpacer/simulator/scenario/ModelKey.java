package io.leaderpacer.simulator.scenario;

import io.leaderpacer.engine.config.NamedKey;

import java.util.List;

/**
 * Every knob of the simulated cluster's physics, with its default, unit, allowed range and what it
 * does: one table that the scenario loader validates against and docs/SIMULATOR.md explains.
 *
 * <p>The defaults are calibrated so that KIP-1358's load test (scenario 2) with Kafka's behaviour
 * today shows the produce-latency spike KIP-1358 reports from production (P99 3-10x steady state
 * after a restart). Which knob produces which effect is written next to each key.
 *
 * <p>A {@link NamedKey} for the lookup by name only: its default is a number with a unit and a range, which the
 * loader checks as numbers, not a {@code KeySpec}'s text.
 */
public enum ModelKey implements NamedKey {
    NETWORK_IN_MBPS(
            "networkInMBps",
            500,
            "MB/s",
            1,
            1e7,
            "Network-in capacity of each broker: produce traffic it leads + replication it fetches + catch-up."),
    DISK_WRITE_MBPS(
            "diskWriteMBps",
            600,
            "MB/s",
            1,
            1e7,
            "Disk capacity of each broker: everything it appends, plus catch-up reads it serves (x catchUpReadCost)."),
    REQUESTS_PER_SECOND(
            "requestHandlingPerSecond",
            120_000,
            "requests/s",
            1,
            1e9,
            "Request-handling capacity of each broker: produce, consumer fetch and post-move metadata/retry requests."),
    CATCH_UP_TARGET_UTILISATION(
            "catchUpTargetUtilisation",
            0.97,
            "fraction",
            0.05,
            0.999,
            "Replica fetchers of a lagging broker take spare capacity up to this utilisation: the saturation that makes early leadership hurt."),
    MAX_UTILISATION(
            "maxUtilisation",
            0.99,
            "fraction",
            0.5,
            0.9999,
            "Caps u in the stationary M/M/1 term only (its relaxation time passes a minute above 0.99); offered load above "
                    + "capacity is carried as a backlog from tick to tick, which has no cap."),
    NETWORK_RTT_MS(
            "networkRttMs", 1.0, "ms", 0, 1e4, "Fixed client-to-leader round trip included in every produce request."),
    LEADER_SERVICE_MS(
            "leaderServiceMs",
            1.5,
            "ms",
            0,
            1e4,
            "Leader queueing: a request waits leaderServiceMs / (1 - u) on its leader (M/M/1 mean response time)."),
    REPLICATION_BASE_MS(
            "replicationBaseMs",
            2.0,
            "ms",
            0,
            1e4,
            "acks=all: time for an in-sync follower to fetch a write, at no load."),
    FOLLOWER_SATURATION_MS(
            "followerSaturationMs",
            0.03,
            "ms",
            0,
            1e4,
            "acks=all: extra follower delay followerSaturationMs x (1/(1-u) - 1) as the follower saturates. Small by default: "
                    + "followers append sequentially in fetcher threads; raise it to model a disk-bound follower path."),
    REPLICA_FETCH_MAX_BYTES(
            "replicaFetchMaxBytes",
            1_048_576,
            "bytes",
            1024,
            1e10,
            "replica.fetch.max.bytes (Kafka default 1 MiB): at most this much of one partition in one fetch response."),
    REPLICA_FETCH_RESPONSE_MAX_BYTES(
            "replicaFetchResponseMaxBytes",
            10_485_760,
            "bytes",
            1024,
            1e11,
            "replica.fetch.response.max.bytes (Kafka default 10 MiB): at most this much in one fetch response."),
    NUM_REPLICA_FETCHERS(
            "numReplicaFetchers",
            1,
            "threads",
            1,
            64,
            "num.replica.fetchers (Kafka default 1): fetcher threads per source broker; partition p uses thread p mod n."),
    FETCH_WAIT_SCALE(
            "followerFetchWaitScale",
            1.0,
            "",
            0,
            1e4,
            "acks=all on a follower that fetches catch-up back to back: a write caught behind a catch-up response waits "
                    + "followerFetchWaitScale x 1.5 responses (response = what its catching-up partitions hold, at most "
                    + "replicaFetchResponseMaxBytes, over the follower's catch-up capacity per busy fetcher). 1 = Kafka's "
                    + "fetch arithmetic alone."),
    THROTTLED_FETCH_WAIT_SCALE(
            "throttledFetchWaitScale",
            1.0,
            "",
            0,
            1e4,
            "The same under a binding follower throttle, where a fetch past the open quota carries one response: a caught "
                    + "write waits throttledFetchWaitScale x 0.5 responses. 1 = Kafka's fetch arithmetic alone."),
    CPU_PERIOD_MS(
            "cpuPeriodMs",
            0,
            "ms",
            0,
            1000,
            "The CFS period of the restarted broker's CPU quota (pacer loadtest --cpu-cap-period, the kernel's default "
                    + "100 ms): under restartedBrokerCores q < 1 the broker runs its catch-up responses at full speed "
                    + "and then stands until the period ends, a share (cores on catch-up bytes) x (1/q - 1) of the "
                    + "time, and a write that needs it then waits half of cpuPeriodMs x (1 - q). 0 = the quota as a "
                    + "rate per tick, no period."),
    REQUEST_COST_KB(
            "requestCostKB",
            0,
            "KB",
            0,
            1e6,
            "Each request a broker handles per second takes this many KB/s from its catch-up capacity and counts as "
                    + "much in its utilisation (one CPU for requests and bytes); 0 = separate resources."),
    MOVE_RETRY_MS(
            "moveRetryMs",
            150,
            "ms",
            0,
            1e5,
            "A leadership move costs the partition's producers NOT_LEADER_OR_FOLLOWER, a metadata refresh and a retry."),
    MOVE_TRANSIENT_SECONDS(
            "moveTransientSeconds",
            10,
            "s",
            0,
            3600,
            "For how long after a move the partition's requests carry the move cost."),
    STORM_WINDOW_SECONDS(
            "leadershipStormWindowSeconds",
            30,
            "s",
            1,
            3600,
            "Window over which leaderships a broker gains count as one burst."),
    STORM_SCALE(
            "leadershipStormScale",
            500,
            "moves",
            1,
            1e9,
            "Each move's cost is moveRetryMs x (1 + gained-in-window / leadershipStormScale): bursts of thousands hurt."),
    STORM_REQUESTS_PER_MOVE(
            "stormRequestsPerMove",
            60,
            "requests",
            0,
            1e6,
            "Metadata, reconnect and retry requests each gained leadership brings, spread over the storm window."),
    CALIBRATED_CORES(
            "calibratedCores",
            0,
            "cores",
            0,
            1024,
            "The CPU cores the CPU-bound capacities (diskWriteMBps, requestCostKB, requestHandlingPerSecond) stand for: "
                    + "the restarted broker's quota in the runs they were fitted on (the load test's 0.5 by default). "
                    + "0 = not known; restartedBrokerCores then has no effect."),
    RESTARTED_BROKER_CORES(
            "restartedBrokerCores",
            0,
            "cores",
            0,
            1024,
            "The restarted broker's CPU quota once it is back (pacer loadtest --cpu-cap): its CPU-bound capacities "
                    + "scale by restartedBrokerCores / calibratedCores, the other brokers' and its network do not. "
                    + "0 = as calibrated."),
    CATCH_UP_BASE_CORES(
            "catchUpBaseCores",
            0,
            "cores",
            0,
            64,
            "CPU a broker back from its restart spends while it has replicas to catch up, whatever their rate (fetch "
                    + "sessions across every partition it follows, its own start-up work): taken from its CPU-bound "
                    + "capacity before bytes and requests. Needs the cores the capacities stand for (restartedBrokerCores "
                    + "or calibratedCores); 0 = none."),
    COLD_CACHE_READ_COST(
            "coldCacheReadCost",
            1.0,
            "",
            0,
            100,
            "Cold page cache on a restarted broker: each byte it serves to readers (consumers of its led partitions, catch-up "
                    + "it serves) costs coldCacheReadCost x exp(-(t - unfenced)/coldCacheDecaySeconds) extra bytes of disk. "
                    + "1 = every read misses the cache at first; appends are not slowed directly."),
    COLD_CACHE_DECAY_SECONDS(
            "coldCacheDecaySeconds", 600, "s", 1, 1e6, "How fast the restarted broker's page cache warms up."),
    LATENCY_SIGMA(
            "latencySigma",
            0.6,
            "",
            0.01,
            3,
            "Spread of request latency around a partition's mean: log-normal with mean 1 and this sigma (P99/median = e^(2.326 sigma))."),
    REPLICA_LAG_TIME_MAX_MS(
            "replicaLagTimeMaxMs",
            30_000,
            "ms",
            1,
            1e9,
            "replica.lag.time.max.ms: a follower that has not caught up for this long leaves the ISR."),
    REPLICATION_QUOTA_WINDOW_NUM(
            "replicationQuotaWindowNum",
            11,
            "samples",
            1,
            1000,
            "replication.quota.window.num (Kafka default 11): how many samples the follower quota's rate averages over. A "
                    + "full response past an open quota holds the next fetches until this many samples have thinned it."),
    REPLICATION_QUOTA_WINDOW_SIZE_SECONDS(
            "replicationQuotaWindowSizeSeconds",
            1,
            "s",
            1,
            3600,
            "replication.quota.window.size.seconds (Kafka default 1): the length of one sample of the follower quota."),
    ALTER_PARTITION_MS(
            "alterPartitionMs",
            200,
            "ms",
            0,
            1e6,
            "Time from a follower catching up (or falling out) to the controller committing the ISR change."),
    CATCH_UP_READ_COST(
            "catchUpReadCost",
            0.1,
            "",
            0,
            10,
            "Disk cost, at the leader, of each byte of catch-up it serves (mostly page-cache hits for recent data)."),
    SESSION_TIMEOUT_MS(
            "brokerSessionTimeoutMs",
            9000,
            "ms",
            1,
            1e7,
            "broker.session.timeout.ms: a crashed broker is fenced this long after it stops heartbeating."),
    CONTROLLED_SHUTDOWN_MS(
            "controlledShutdownMs",
            5000,
            "ms",
            0,
            1e7,
            "From entering controlled shutdown (leaders moved off) to the process stopping."),
    UNFENCE_DELAY_MS(
            "unfenceDelayMs",
            10_000,
            "ms",
            0,
            1e7,
            "From a restarted broker registering to it being unfenced (metadata catch-up); replication starts then."),
    CONTROLLER_FAILOVER_MS(
            "controllerFailoverMs",
            3000,
            "ms",
            0,
            1e7,
            "Time without an active controller during a controller failover."),
    REQUEST_TIMEOUT_MS(
            "requestTimeoutMs",
            30_000,
            "ms",
            1,
            1e9,
            "Producers' request.timeout.ms: a request slower than this is counted as a time-out (KIP-1358's criterion uses 30000)."),
    TICK_MS(
            "tickMs",
            1000,
            "ms",
            100,
            60_000,
            "Load-model time step: utilisation, catch-up and latency are evaluated once per tick."),
    BUCKET_SECONDS("bucketSeconds", 10, "s", 1, 3600, "Width of one point of the time series (CSV and charts)."),
    RECOVERY_WINDOW_SECONDS(
            "recoveryWindowSeconds",
            600,
            "s",
            0,
            86_400,
            "KIP-1358's acceptance window: P99 is measured over this long from the broker's unfencing; 0 = until recovery."),
    RECOVERY_WINDOW_TAIL_SECONDS(
            "recoveryWindowTailSeconds",
            0,
            "s",
            0,
            3600,
            "The window stays open until this long after recovery when that is later than recoveryWindowSeconds, as the"
                    + " load test's window does (30 s since evidence run 10); 0 = a fixed window."),
    RECOVERED_FRACTION(
            "recoveredFraction",
            0.99,
            "fraction",
            0.01,
            1,
            "Recovery ends when every restarted broker leads this fraction of its preferred partitions.");

    private final String key;
    private final double defaultValue;
    private final String unit;
    private final double min;
    private final double max;
    private final String doc;

    ModelKey(String key, double defaultValue, String unit, double min, double max, String doc) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.unit = unit;
        this.min = min;
        this.max = max;
        this.doc = doc;
    }

    /** The name used in scenario files under {@code model:}. */
    @Override
    public String key() {
        return key;
    }

    public double defaultValue() {
        return defaultValue;
    }

    public String unit() {
        return unit;
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    public String doc() {
        return doc;
    }

    /** The key for a scenario-file name, or {@code null}. */
    public static ModelKey forKey(String name) {
        return NamedKey.forName(ModelKey.class, name).orElse(null);
    }

    public static List<String> keys() {
        return NamedKey.names(ModelKey.class);
    }
}
