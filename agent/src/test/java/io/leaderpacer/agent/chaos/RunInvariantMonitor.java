package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.RunListener;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.reorder.DeprioritizedOrderStep;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.agent.reorder.StoredOrders;
import io.leaderpacer.engine.cluster.ClusterSnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the {@link InvariantChecks} after every run of the agent and keeps the chaos figures.
 *
 * <p>Why a listener that records rather than throws: the agent calls listeners on its own run thread and only
 * logs what they throw, so a violation thrown there would not fail the test. The monitor keeps every violation and
 * the test thread asks {@link #throwIfViolated()} after each step of the plan and at the end. The state topic is
 * read here, on the run thread between two runs, so it is seen exactly as the run left it.
 */
final class RunInvariantMonitor implements RunListener {

    private final InvariantChecks checks;
    /** Gives each run's decided snapshot. */
    private final RecordingOrderStep recorder;
    /** The real reorder step, for what it did in the run. */
    private final DeprioritizedOrderStep reorder;
    /** A reader of the state topic of its own (another consumer than the agent's). */
    private final OrderStateStore stateReader;

    /** The instance whose runs this monitor sees, as the failover checks name it. */
    private final String instance;
    /** The checks across coordinated instances (shared by their monitors); empty for a single agent. */
    private final Optional<FailoverChecks> failover;

    private final AtomicLong runs = new AtomicLong();
    private final AtomicLong failedRuns = new AtomicLong();
    private final AtomicLong electionsDecided = new AtomicLong();
    private final AtomicLong electionsMade = new AtomicLong();
    private final AtomicLong checksPassed = new AtomicLong();
    private final AtomicLong settledRuns = new AtomicLong();
    /** Runs that reached the cap (Kafka's "more work"): the cap check was tight in them. */
    private final AtomicLong cappedRuns = new AtomicLong();
    /** Runs whose decision held at least one broker back at the gate. */
    private final AtomicLong gatedRuns = new AtomicLong();
    /** Runs after which the state topic could not be read (its state checks skipped). */
    private final AtomicLong stateReadFailures = new AtomicLong();
    /** Every violation, in order; guarded by itself. */
    private final List<AssertionError> violations = new ArrayList<>();

    RunInvariantMonitor(
            InvariantChecks checks,
            RecordingOrderStep recorder,
            DeprioritizedOrderStep reorder,
            OrderStateStore stateReader) {
        this(checks, recorder, reorder, stateReader, "agent", Optional.empty());
    }

    /**
     * A monitor of one of several coordinated instances: its runs are also checked against the other instances'
     * runs by the shared {@code failover} checks.
     */
    RunInvariantMonitor(
            InvariantChecks checks,
            RecordingOrderStep recorder,
            DeprioritizedOrderStep reorder,
            OrderStateStore stateReader,
            String instance,
            Optional<FailoverChecks> failover) {
        this.instance = Objects.requireNonNull(instance, "instance");
        this.failover = Objects.requireNonNull(failover, "failover");
        this.checks = Objects.requireNonNull(checks, "checks");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.reorder = Objects.requireNonNull(reorder, "reorder");
        this.stateReader = Objects.requireNonNull(stateReader, "stateReader");
    }

    @Override
    public void onRun(RunRecord run) {
        runs.incrementAndGet();
        Optional<ClusterSnapshot> decided = recorder.take();
        if (!run.succeeded()) {
            failedRuns.incrementAndGet();
        }
        electionsDecided.addAndGet(run.decision().map(d -> d.elections().size()).orElse(0));
        run.decision().ifPresent(d -> {
            if (d.moreWork()) {
                cappedRuns.incrementAndGet();
            }
            if (d.gatedBrokerCount() > 0) {
                gatedRuns.incrementAndGet();
            }
        });
        electionsMade.addAndGet(run.count(ElectionOutcome.ELECTED));
        Optional<StoredOrders> stored = readState();
        try {
            checksPassed.addAndGet(checks.afterRun(
                    run, decided, stored, run.succeeded() ? Optional.of(reorder.lastReport()) : Optional.empty()));
            if (stored.isPresent()
                    && decided.isPresent()
                    && run.succeeded()
                    && InvariantChecks.nothingInProgress(reorder.lastReport())) {
                settledRuns.incrementAndGet();
            }
        } catch (AssertionError e) {
            record(failover.isEmpty() ? e : new AssertionError("instance " + instance + ", " + e.getMessage(), e));
        }
        if (failover.isPresent()) {
            try {
                checksPassed.addAndGet(failover.get().afterRun(instance, run));
            } catch (AssertionError e) {
                record(e);
            }
        }
    }

    /**
     * The state topic as the run left it. A read that fails (its leader was just crashed and the time-out ran out)
     * skips the state checks of this one run and is counted; it is the test's reader that failed, not the agent.
     */
    private Optional<StoredOrders> readState() {
        try {
            return Optional.of(stateReader.load());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stateReadFailures.incrementAndGet();
            return Optional.empty();
        } catch (Exception e) {
            stateReadFailures.incrementAndGet();
            return Optional.empty();
        }
    }

    /** Throws the first violation seen so far, if any (the others are attached as suppressed). */
    void throwIfViolated() {
        synchronized (violations) {
            if (violations.isEmpty()) {
                return;
            }
            AssertionError first = new AssertionError(
                    violations.size() + " invariant violation(s); first: "
                            + violations.get(0).getMessage(),
                    violations.get(0));
            violations.stream().skip(1).limit(10).forEach(first::addSuppressed);
            throw first;
        }
    }

    long runs() {
        return runs.get();
    }

    long failedRuns() {
        return failedRuns.get();
    }

    long electionsDecided() {
        return electionsDecided.get();
    }

    /** Elections Kafka carried out. */
    long electionsMade() {
        return electionsMade.get();
    }

    long checksPassed() {
        return checksPassed.get();
    }

    /** Runs after which the state topic was checked as settled (nothing left to move). */
    long settledRuns() {
        return settledRuns.get();
    }

    long cappedRuns() {
        return cappedRuns.get();
    }

    long gatedRuns() {
        return gatedRuns.get();
    }

    long stateReadFailures() {
        return stateReadFailures.get();
    }

    long violations() {
        synchronized (violations) {
            return violations.size();
        }
    }

    private void record(AssertionError e) {
        synchronized (violations) {
            violations.add(e);
        }
    }
}
