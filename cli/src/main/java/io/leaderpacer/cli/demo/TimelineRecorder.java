package io.leaderpacer.cli.demo;

import io.leaderpacer.loadtest.AgentRunLoop;
import io.leaderpacer.agent.ElectionOutcome;
import io.leaderpacer.agent.RunListener;
import io.leaderpacer.agent.RunRecord;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Turns every agent run into a timeline line: prints it at once and keeps it for the comparison
 * and the report, and tells the round when the restarted broker has all its leadership back.
 *
 * <p>Everything in a line comes from the run itself (the snapshot the agent read, the engine's
 * gate report, Kafka's election results), except the produce latency, which is the interval
 * since the previous line.
 */
final class TimelineRecorder implements RunListener {

    /** The broker whose recovery is followed. */
    private final int broker;
    /** Where the producer's latencies accumulate. */
    private final ProduceLatency latency;
    /** Prints one line (thread-safe). */
    private final Consumer<String> printer;
    /** Formats the lines. */
    private final TimelineFormat format;
    /** Wall-clock time of the start of the round: the agent's clock, on which its runs are stamped. */
    private final long roundStartMs;
    /** The samples so far; guarded by this. */
    private final List<TimelineSample> samples = new ArrayList<>();
    /** Released by the first run after the restart in which the broker leads all its preferred partitions. */
    private final CountDownLatch recovered = new CountDownLatch(1);
    /** Set once the broker has been started again: only then does "all leadership back" end the round. */
    private volatile boolean restarted;

    TimelineRecorder(int broker, ProduceLatency latency, Consumer<String> printer, long roundStartMs) {
        this.broker = broker;
        this.latency = latency;
        this.printer = printer;
        this.format = new TimelineFormat(broker);
        this.roundStartMs = roundStartMs;
    }

    @Override
    public void onRun(RunRecord run) {
        long at = run.startedAtMs() - roundStartMs;
        ProduceLatency.Interval interval = latency.takeInterval();
        if (run.decision().isEmpty()) {
            printer.accept(TimelineFormat.event(at, "agent run " + run.sequence() + " failed: "
                    + run.failure().orElse("no decision") + "; retried in " + AgentRunLoop.FAILED_RUN_RETRY_MS + " ms"));
            return;
        }
        TimelineSample sample = sample(run, broker, at, interval);
        synchronized (this) {
            samples.add(sample);
        }
        printer.accept(format.line(sample));
        if (restarted && sample.fullyRecovered()) {
            recovered.countDown();
        }
    }

    /** The line for one successful run. */
    static TimelineSample sample(RunRecord run, int broker, long atMs, ProduceLatency.Interval interval) {
        ElectionDecision decision = run.decision().orElseThrow();
        BrokerGateReport report = decision.broker(broker);
        boolean active = report != null && report.active();
        int outOfSync = report == null ? 0 : report.outOfSync();
        int preferred = report == null ? 0 : report.preferredPartitions();
        return new TimelineSample(atMs, active, outOfSync, preferred, report == null ? null : report.phase(),
                run.leaderCount(broker), (int) run.count(ElectionOutcome.ELECTED), (int) run.electedTo(broker),
                interval.p99Ms(), interval.count());
    }

    /** From now on, a run that finds all leadership back ends the round. */
    void markRestarted() {
        restarted = true;
    }

    /** Waits until the broker leads all its preferred partitions again; false on time-out. */
    boolean awaitRecovered(long timeoutMs) throws InterruptedException {
        return recovered.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** The samples recorded so far, in order. */
    synchronized List<TimelineSample> samples() {
        return List.copyOf(samples);
    }

    /** The column header. */
    String header() {
        return format.header();
    }
}
