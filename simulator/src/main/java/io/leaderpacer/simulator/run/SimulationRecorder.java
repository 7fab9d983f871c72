package io.leaderpacer.simulator.run;

import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.report.MeasurementWindow;
import io.leaderpacer.simulator.controller.RunObserver;
import io.leaderpacer.simulator.latency.LatencyHistogram;
import io.leaderpacer.simulator.model.BrokerLoad;
import io.leaderpacer.simulator.model.FollowerThrottle;
import io.leaderpacer.simulator.model.LatencySink;
import io.leaderpacer.simulator.model.ModelCluster;
import io.leaderpacer.simulator.model.Replication;
import io.leaderpacer.simulator.model.RestartedRole;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * Everything a simulation measures: request latencies per time bucket and per acceptance window, the
 * controller's activity, and a sample of the watched brokers' state per bucket.
 *
 * <p>Latencies for a tick go to the bucket's histogram and, when the tick falls in them, to the
 * steady-state window (before the first event) and the recovery window (from the first
 * unfencing of a restarted broker, for {@code recoveryWindowSeconds}).
 */
final class SimulationRecorder implements LatencySink, RunObserver {

    /** Gate phases as numbers for the time series. */
    static final double OPEN = 0;

    static final double GATED = 1;
    static final double ESCAPED = 2;

    private final double sigma;
    private final double timeoutMs;
    private final long steadyEndMs;
    private final MeasurementWindow measurementWindow;
    private final long bucketMs;
    private final int[] watched;

    private final LatencyHistogram bucket = new LatencyHistogram();
    private final LatencyHistogram steady = new LatencyHistogram();
    private final LatencyHistogram window = new LatencyHistogram();
    /** Per class: [0] other, [1] protected (preferred leader = a restarted broker); steady and window. */
    private final LatencyHistogram[] steadyByClass = {new LatencyHistogram(), new LatencyHistogram()};

    private final LatencyHistogram[] windowByClass = {new LatencyHistogram(), new LatencyHistogram()};
    /** Over the window, per role of a restarted broker in the partition (the load test's split by role). */
    private final LatencyHistogram[] windowByRole = new LatencyHistogram[RestartedRole.values().length];
    /** Per leader broker (all brokers, or none when there are too many to keep): steady and window. */
    private final LatencyHistogram[] steadyByBroker;

    private final LatencyHistogram[] windowByBroker;
    /** Per bucket, per class, for the per-class chart. */
    private final LatencyHistogram[] bucketByClass = {new LatencyHistogram(), new LatencyHistogram()};

    private long windowStartMs = Long.MIN_VALUE;
    /** When every restarted broker had recovered, once it has. */
    private long recoveredMs = Long.MIN_VALUE;
    /**
     * When the window closes (absolute ms), as far as known: worked out at the window's start and at recovery, not per
     * recorded send (the recording is the simulation's hot path).
     */
    private long windowEndMs = Long.MAX_VALUE;
    /** The policy gates (wait-for-sync): the first run after unfencing that does not gate the broker releases it. */
    private final boolean gating;

    private long gateReleaseMs = Long.MIN_VALUE;
    /** Start of the tick being recorded. */
    private long tickMs;

    private final TimeSeries.Builder series;
    private long bucketElections;
    private long bucketFailoverElections;
    private long bucketRuns;
    private final double[] utilisationSum;
    private int bucketTicks;
    private int gatedBrokers;
    private int imbalanced;
    private final double[] phase;

    private long elections;
    private long failoverElections;
    private long runs;
    private int maxElectionsInRun;
    private long skippedByGate;
    private int controllerFailovers;
    private double timeouts;

    /** Columns per watched broker in the time series. */
    private static final int PER_BROKER = 6;
    /** Columns before the first broker's: time, the bucket's latency and controller figures, the canary's ratio. */
    private static final int FIXED = 13;

    /** Brokers up to which P99 is kept per broker (a few KB each). */
    static final int MAX_BROKERS_WITH_FIGURES = 1024;

    SimulationRecorder(
            double sigma,
            double timeoutMs,
            long steadyEndMs,
            MeasurementWindow window,
            long bucketMs,
            int[] watched,
            int brokers,
            boolean gating) {
        this.bucketMs = bucketMs;
        this.gating = gating;
        for (int r = 0; r < windowByRole.length; r++) {
            windowByRole[r] = new LatencyHistogram();
        }
        int kept = brokers <= MAX_BROKERS_WITH_FIGURES ? brokers : 0;
        steadyByBroker = new LatencyHistogram[kept];
        windowByBroker = new LatencyHistogram[kept];
        for (int b = 0; b < kept; b++) {
            steadyByBroker[b] = new LatencyHistogram();
            windowByBroker[b] = new LatencyHistogram();
        }
        this.sigma = sigma;
        this.timeoutMs = timeoutMs;
        this.steadyEndMs = steadyEndMs;
        this.measurementWindow = window;
        this.watched = watched.clone();
        utilisationSum = new double[watched.length];
        phase = new double[watched.length];
        List<String> names = new ArrayList<>(List.of(
                "time_s",
                "p99_ms",
                "mean_ms",
                "requests",
                "timeouts",
                "elections",
                "failover_elections",
                "runs",
                "gated_brokers",
                "imbalanced",
                "p99_protected_ms",
                "p99_other_ms",
                "canary_ratio"));
        for (int b : watched) {
            names.add("leaders_b" + b);
            names.add("out_of_sync_b" + b);
            names.add("gate_b" + b);
            names.add("util_b" + b);
            names.add("lagging_b" + b);
            names.add("throttle_mbps_b" + b);
        }
        series = new TimeSeries.Builder(names);
    }

    /** The first unfencing of a restarted broker opens the recovery window. */
    void startRecoveryWindow(long nowMs) {
        if (windowStartMs == Long.MIN_VALUE) {
            windowStartMs = nowMs;
            updateWindowEnd();
        }
    }

    long windowStartMs() {
        return windowStartMs;
    }

    void beginTick(long nowMs, BrokerLoad load) {
        tickMs = nowMs;
        for (int i = 0; i < watched.length; i++) {
            utilisationSum[i] += load.utilisation(watched[i]);
        }
        bucketTicks++;
    }

    @Override
    public void recordMean(double meanMs, long milliRequests, int leader, boolean protectedClass, RestartedRole role) {
        int c = protectedClass ? 1 : 0;
        bucket.recordMean(meanMs, milliRequests);
        bucketByClass[c].recordMean(meanMs, milliRequests);
        boolean perBroker = leader >= 0 && leader < steadyByBroker.length;
        if (tickMs < steadyEndMs) {
            steady.recordMean(meanMs, milliRequests);
            steadyByClass[c].recordMean(meanMs, milliRequests);
            if (perBroker) {
                steadyByBroker[leader].recordMean(meanMs, milliRequests);
            }
        }
        if (inWindow()) {
            window.recordMean(meanMs, milliRequests);
            windowByClass[c].recordMean(meanMs, milliRequests);
            windowByRole[role.ordinal()].recordMean(meanMs, milliRequests);
            if (perBroker) {
                windowByBroker[leader].recordMean(meanMs, milliRequests);
            }
        }
    }

    @Override
    public void recordExact(
            double latencyMs, long milliRequests, int leader, boolean protectedClass, RestartedRole role) {
        int c = protectedClass ? 1 : 0;
        bucket.recordExact(latencyMs, milliRequests);
        bucketByClass[c].recordExact(latencyMs, milliRequests);
        boolean perBroker = leader >= 0 && leader < steadyByBroker.length;
        if (tickMs < steadyEndMs) {
            steady.recordExact(latencyMs, milliRequests);
            steadyByClass[c].recordExact(latencyMs, milliRequests);
            if (perBroker) {
                steadyByBroker[leader].recordExact(latencyMs, milliRequests);
            }
        }
        if (inWindow()) {
            window.recordExact(latencyMs, milliRequests);
            windowByClass[c].recordExact(latencyMs, milliRequests);
            windowByRole[role.ordinal()].recordExact(latencyMs, milliRequests);
            if (perBroker) {
                windowByBroker[leader].recordExact(latencyMs, milliRequests);
            }
        }
    }

    private boolean inWindow() {
        if (windowStartMs == Long.MIN_VALUE || tickMs < windowStartMs) {
            return false;
        }
        return tickMs < windowEndMs;
    }

    private void updateWindowEnd() {
        if (windowStartMs == Long.MIN_VALUE) {
            return;
        }
        long end = measurementWindow.endMs(
                recoveredMs == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(recoveredMs - windowStartMs));
        windowEndMs = end == Long.MAX_VALUE ? Long.MAX_VALUE : windowStartMs + end;
    }

    /** Every restarted broker has recovered: an "until recovery" window closes here, a covering one after its tail. */
    void recovered(long nowMs) {
        if (recoveredMs == Long.MIN_VALUE) {
            recoveredMs = nowMs;
            updateWindowEnd();
        }
    }

    @Override
    public void preferredRun(ElectionDecision decision, long nowMs) {
        int n = decision.elections().size();
        runs++;
        bucketRuns++;
        elections += n;
        bucketElections += n;
        maxElectionsInRun = Math.max(maxElectionsInRun, n);
        skippedByGate += decision.skippedByGate();
        gatedBrokers = decision.gatedBrokerCount();
        imbalanced = decision.imbalancedCount();
        boolean anyGated = false;
        for (int i = 0; i < watched.length; i++) {
            BrokerGateReport r = decision.broker(watched[i]);
            GatePhase p = r == null ? GatePhase.OPEN : r.verdict().phase();
            phase[i] = p == GatePhase.GATED ? GATED : p == GatePhase.ESCAPED ? ESCAPED : OPEN;
            anyGated |= p == GatePhase.GATED;
        }
        if (gating
                && !anyGated
                && gateReleaseMs == Long.MIN_VALUE
                && windowStartMs != Long.MIN_VALUE
                && nowMs > windowStartMs) {
            gateReleaseMs = nowMs;
        }
    }

    @Override
    public void failoverElections(int count, long nowMs) {
        failoverElections += count;
        bucketFailoverElections += count;
    }

    @Override
    public void controllerFailover(long nowMs) {
        controllerFailovers++;
        // The new controller's gate starts empty: show what it will know, not what the old one knew.
        gatedBrokers = 0;
        Arrays.fill(phase, OPEN);
    }

    /** Closes the bucket that started at {@code startMs}: one row of the time series. */
    void closeBucket(
            long startMs,
            ModelCluster cluster,
            Replication replication,
            FollowerThrottle throttle,
            double canaryRatio) {
        cluster.refresh();
        double bucketTimeouts = bucket.isEmpty() ? 0 : bucket.requestsAbove(timeoutMs, sigma);
        // KIP-1358's criterion is about the recovery: count from the bucket holding the first unfencing.
        if (windowStartMs != Long.MIN_VALUE && startMs + bucketMs > windowStartMs) {
            timeouts += bucketTimeouts;
        }
        double[] row = new double[FIXED + PER_BROKER * watched.length];
        row[0] = startMs / 1000.0;
        row[1] = bucket.quantileMs(0.99, sigma);
        row[2] = bucket.meanMs();
        row[3] = bucket.requests();
        row[4] = bucketTimeouts;
        row[5] = bucketElections;
        row[6] = bucketFailoverElections;
        row[7] = bucketRuns;
        row[8] = gatedBrokers;
        row[9] = imbalanced;
        row[10] = bucketByClass[1].isEmpty() ? 0 : bucketByClass[1].quantileMs(0.99, sigma);
        row[11] = bucketByClass[0].isEmpty() ? 0 : bucketByClass[0].quantileMs(0.99, sigma);
        row[12] = Double.isNaN(canaryRatio) ? 0 : canaryRatio;
        bucketByClass[0].reset();
        bucketByClass[1].reset();
        for (int i = 0; i < watched.length; i++) {
            int b = watched[i];
            int c = FIXED + PER_BROKER * i;
            row[c] = cluster.leaderCount(b);
            row[c + 1] = cluster.outOfSyncPreferred(b);
            row[c + 2] = phase[i];
            row[c + 3] = bucketTicks == 0 ? 0 : utilisationSum[i] / bucketTicks;
            row[c + 4] = replication.laggingCount(b);
            row[c + 5] = throttle.rate(b) / 1e6;
            utilisationSum[i] = 0;
        }
        series.row(row);
        bucket.reset();
        bucketElections = 0;
        bucketFailoverElections = 0;
        bucketRuns = 0;
        bucketTicks = 0;
    }

    double steadyP99Ms() {
        return steady.quantileMs(0.99, sigma);
    }

    double windowP99Ms() {
        return window.quantileMs(0.99, sigma);
    }

    /** P99 of a class: [steady, window], NaN when the class had no requests. */
    double[] classP99Ms(boolean protectedClass) {
        int c = protectedClass ? 1 : 0;
        return new double[] {p99(steadyByClass[c]), p99(windowByClass[c])};
    }

    /** Window P99 per {@link RestartedRole}, by ordinal; NaN for a role without requests. */
    double[] windowP99ByRoleMs() {
        double[] out = new double[windowByRole.length];
        for (int r = 0; r < out.length; r++) {
            out[r] = p99(windowByRole[r]);
        }
        return out;
    }

    /** Per leader broker [steady, window] P99, or an empty array when there are too many brokers to keep. */
    double[][] brokerP99Ms() {
        double[][] out = new double[steadyByBroker.length][];
        for (int b = 0; b < out.length; b++) {
            out[b] = new double[] {p99(steadyByBroker[b]), p99(windowByBroker[b])};
        }
        return out;
    }

    private double p99(LatencyHistogram h) {
        return h.isEmpty() ? Double.NaN : h.quantileMs(0.99, sigma);
    }

    long gateReleaseMs() {
        return gateReleaseMs;
    }

    double timeouts() {
        return timeouts;
    }

    long elections() {
        return elections;
    }

    long failoverElections() {
        return failoverElections;
    }

    long runs() {
        return runs;
    }

    int maxElectionsInRun() {
        return maxElectionsInRun;
    }

    long skippedByGate() {
        return skippedByGate;
    }

    int controllerFailovers() {
        return controllerFailovers;
    }

    TimeSeries series() {
        return series.build();
    }
}
