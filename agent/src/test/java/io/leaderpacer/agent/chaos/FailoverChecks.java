package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.engine.ElectionDecision;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The invariants of several coordinated agent instances taken together, checked after every run that sent
 * elections, whichever instance made it.
 *
 * <p>Why apart from {@link InvariantChecks}: those are about one run; these are about the timeline of runs of
 * different instances, which no single instance sees. The issue asks that a deposed instance stops electing before
 * its successor starts, and that a successor keeps the predecessor's pacing; both are statements about start and
 * finish times of electing runs of two instances. All instances run in one JVM on the same wall clock, so their
 * run records' times can be compared directly. Like {@link InvariantChecks} each check throws
 * {@link AgentInvariantViolation} naming the runs, and returns how many single checks passed.
 *
 * <p>The invariants:
 * <ol>
 *   <li>at most one instance elects at a time: no electing run of one instance overlaps in time an electing run
 *       of another;</li>
 *   <li>a takeover keeps the pacing: an instance's first electing run after another instance's starts no earlier
 *       than that instance's last capped electing run ended plus the throttle interval;</li>
 *   <li>every election batch, whichever instance sent it, is within the cap.</li>
 * </ol>
 *
 * <p>Thread-safe: each instance's run thread calls {@link #afterRun} for its own runs.
 */
final class FailoverChecks {

    /** One run that sent elections, as the timeline keeps it. */
    record ElectingRun(
            String instance, long sequence, long startedAtMs, long finishedAtMs, int elections, boolean capped) {

        String describe() {
            return "instance " + instance + " run " + sequence + " [" + startedAtMs + ", " + finishedAtMs + "] ms, "
                    + elections + " election(s)" + (capped ? ", capped" : "");
        }
    }

    /** The configured {@code leader.imbalance.election.max.per.run}. */
    private final int cap;
    /** The configured {@code leader.imbalance.election.throttle.interval.ms}: the least gap after a capped run. */
    private final long throttleIntervalMs;
    /** Every electing run so far, in the order the runs were reported; guarded by this. */
    private final List<ElectingRun> timeline = new ArrayList<>();
    /** Hand-overs seen: an electing run of an instance other than the one that elected last; guarded by this. */
    private long handovers;

    FailoverChecks(int cap, long throttleIntervalMs) {
        if (cap < 1 || throttleIntervalMs < 0) {
            throw new IllegalArgumentException(
                    "cap must be >= 1 and throttle interval >= 0, were " + cap + " and " + throttleIntervalMs);
        }
        this.cap = cap;
        this.throttleIntervalMs = throttleIntervalMs;
    }

    /** Every check for one run of an instance; runs that sent no elections are not part of the timeline. */
    int afterRun(String instance, RunRecord run) {
        if (run.dryRun() || run.results().isEmpty()) {
            return 0;
        }
        boolean capped = run.decision().map(ElectionDecision::moreWork).orElse(false);
        return afterRun(new ElectingRun(
                instance,
                run.sequence(),
                run.startedAtMs(),
                run.finishedAtMs(),
                run.results().size(),
                capped));
    }

    /**
     * Every check for one electing run, against every electing run reported before it.
     *
     * @throws AgentInvariantViolation at the first check that fails (the run is then not added to the timeline)
     */
    synchronized int afterRun(ElectingRun run) {
        Objects.requireNonNull(run, "run");
        if (run.elections() > cap) {
            throw new AgentInvariantViolation(
                    run.sequence(),
                    "instance " + run.instance() + " sent " + run.elections()
                            + " elections in one batch, more than the cap of " + cap);
        }
        int passed = 1;
        for (ElectingRun other : timeline) {
            if (!other.instance().equals(run.instance())
                    && run.startedAtMs() < other.finishedAtMs()
                    && other.startedAtMs() < run.finishedAtMs()) {
                throw new AgentInvariantViolation(
                        run.sequence(),
                        "two instances elected at the same time: " + run.describe() + " overlaps " + other.describe());
            }
            passed++;
        }
        if (!timeline.isEmpty()) {
            String previous = timeline.get(timeline.size() - 1).instance();
            if (!previous.equals(run.instance())) {
                handovers++;
                ElectingRun lastCapped = null;
                for (ElectingRun r : timeline) {
                    if (r.instance().equals(previous) && r.capped()) {
                        lastCapped = r;
                    }
                }
                if (lastCapped != null && run.startedAtMs() < lastCapped.finishedAtMs() + throttleIntervalMs) {
                    throw new AgentInvariantViolation(
                            run.sequence(),
                            "the first electing run of instance " + run.instance()
                                    + " after instance " + previous + " started "
                                    + (run.startedAtMs() - lastCapped.finishedAtMs())
                                    + " ms after the predecessor's last capped run ended, less than the throttle interval of "
                                    + throttleIntervalMs + " ms (" + run.describe() + "; predecessor "
                                    + lastCapped.describe() + ")");
                }
                passed++;
            }
        }
        timeline.add(run);
        return passed;
    }

    /** Hand-overs of electing between instances seen so far. */
    synchronized long handovers() {
        return handovers;
    }

    /** Electing runs in the timeline. */
    synchronized int electingRuns() {
        return timeline.size();
    }
}
