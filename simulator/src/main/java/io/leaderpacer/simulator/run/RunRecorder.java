package io.leaderpacer.simulator.run;

import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.simulator.controller.RunObserver;
import io.leaderpacer.simulator.latency.LatencyHistogram;
import io.leaderpacer.simulator.model.BrokerLoad;
import io.leaderpacer.simulator.model.ClusterState;
import io.leaderpacer.simulator.model.LatencySink;
import io.leaderpacer.simulator.model.Replication;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything a run measures: request latencies per time bucket and per acceptance window, the
 * controller's activity, and a sample of the watched brokers' state per bucket.
 *
 * <p>Latencies for a tick go to the bucket's histogram and, when the tick falls in them, to the
 * steady-state window (before the first event) and the recovery window (from the first
 * unfencing of a restarted broker, for {@code recoveryWindowSeconds}).
 */
final class RunRecorder implements LatencySink, RunObserver {

    /** Gate phases as numbers for the time series. */
    static final double OPEN = 0;
    static final double GATED = 1;
    static final double ESCAPED = 2;

    private final double sigma;
    private final double timeoutMs;
    private final long steadyEndMs;
    private final long windowMs;
    private final long bucketMs;
    private final int[] watched;

    private final LatencyHistogram bucket = new LatencyHistogram();
    private final LatencyHistogram steady = new LatencyHistogram();
    private final LatencyHistogram window = new LatencyHistogram();
    private long windowStartMs = Long.MIN_VALUE;
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

    RunRecorder(double sigma, double timeoutMs, long steadyEndMs, long windowMs, long bucketMs, int[] watched) {
        this.bucketMs = bucketMs;
        this.sigma = sigma;
        this.timeoutMs = timeoutMs;
        this.steadyEndMs = steadyEndMs;
        this.windowMs = windowMs;
        this.watched = watched.clone();
        utilisationSum = new double[watched.length];
        phase = new double[watched.length];
        List<String> names = new ArrayList<>(List.of("time_s", "p99_ms", "mean_ms", "requests", "timeouts",
                "elections", "failover_elections", "runs", "gated_brokers", "imbalanced"));
        for (int b : watched) {
            names.add("leaders_b" + b);
            names.add("out_of_sync_b" + b);
            names.add("gate_b" + b);
            names.add("util_b" + b);
            names.add("lagging_b" + b);
        }
        series = new TimeSeries.Builder(names);
    }

    /** The first unfencing of a restarted broker opens the recovery window. */
    void startRecoveryWindow(long nowMs) {
        if (windowStartMs == Long.MIN_VALUE) {
            windowStartMs = nowMs;
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
    public void recordMean(double meanMs, long milliRequests) {
        bucket.recordMean(meanMs, milliRequests);
        if (tickMs < steadyEndMs) {
            steady.recordMean(meanMs, milliRequests);
        }
        if (inWindow()) {
            window.recordMean(meanMs, milliRequests);
        }
    }

    @Override
    public void recordExact(double latencyMs, long milliRequests) {
        bucket.recordExact(latencyMs, milliRequests);
        if (tickMs < steadyEndMs) {
            steady.recordExact(latencyMs, milliRequests);
        }
        if (inWindow()) {
            window.recordExact(latencyMs, milliRequests);
        }
    }

    private boolean inWindow() {
        return windowStartMs != Long.MIN_VALUE && tickMs >= windowStartMs && tickMs < windowStartMs + windowMs;
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
        for (int i = 0; i < watched.length; i++) {
            BrokerGateReport r = decision.broker(watched[i]);
            GatePhase p = r == null ? GatePhase.OPEN : r.phase();
            phase[i] = p == GatePhase.GATED ? GATED : p == GatePhase.ESCAPED ? ESCAPED : OPEN;
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
        java.util.Arrays.fill(phase, OPEN);
    }

    /** Closes the bucket that started at {@code startMs}: one row of the time series. */
    void closeBucket(long startMs, ClusterState cluster, Replication replication) {
        cluster.refresh();
        double bucketTimeouts = bucket.isEmpty() ? 0 : bucket.requestsAbove(timeoutMs, sigma);
        // The seed's criterion is about the recovery: count from the bucket holding the first unfencing.
        if (windowStartMs != Long.MIN_VALUE && startMs + bucketMs > windowStartMs) {
            timeouts += bucketTimeouts;
        }
        double[] row = new double[10 + 5 * watched.length];
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
        for (int i = 0; i < watched.length; i++) {
            int b = watched[i];
            int c = 10 + 5 * i;
            row[c] = cluster.leaderCount(b);
            row[c + 1] = cluster.outOfSyncPreferred(b);
            row[c + 2] = phase[i];
            row[c + 3] = bucketTicks == 0 ? 0 : utilisationSum[i] / bucketTicks;
            row[c + 4] = replication.laggingCount(b);
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
