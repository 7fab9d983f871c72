package io.leaderpacer.agent.core;

import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.schedule.PeriodicTask;
import io.leaderpacer.engine.schedule.RunOutcome;

import java.util.Locale;
import java.util.Optional;

/**
 * A run whose read of the cluster took longer than the interval it serves: the delay the schedule chose after it.
 *
 * <p>Why: the agent reads every partition's state each run. On a large cluster that read can outgrow the interval
 * that makes the policy work, most of all the re-check of a gated broker (seconds, while the check interval is
 * minutes); the next run then starts a whole read later than the policy says, and the broker gets its leadership
 * back that much later. The operator should see it in the log and in {@code /status}, with the setting that helps: a
 * longer interval is honest about what the agent can do; the run's phases ({@link RunTimings}) show whether the
 * read is the cost.
 *
 * @param sequence   the run
 * @param readMs     how long its read took
 * @param intervalMs the interval it serves: the delay until the next run
 * @param setting    the key of the setting that sets that interval
 */
public record SlowRead(long sequence, long readMs, long intervalMs, String setting) {

    /**
     * The run's slow read, if its read took longer than the interval it serves; none for a failed run, nor for a
     * capped run without an election throttle, which Kafka follows at once (its 10 ms) by design.
     */
    public static Optional<SlowRead> of(RunRecord run) {
        if (run.decision().isEmpty()) {
            return Optional.empty();
        }
        ElectionDecision d = run.decision().get();
        if (d.outcome() == RunOutcome.MORE_WORK && run.config().throttleIntervalMs() <= 0) {
            return Optional.empty();
        }
        long readMs = run.timings().readNanos() / 1_000_000;
        if (readMs <= run.nextRunDelayMs()) {
            return Optional.empty();
        }
        return Optional.of(new SlowRead(run.sequence(), readMs, run.nextRunDelayMs(), setting(d)));
    }

    /** The key of the setting that chose the delay after a run with this decision. */
    static String setting(ElectionDecision decision) {
        RunOutcome outcome = decision.outcome();
        if (outcome == RunOutcome.MORE_WORK) {
            return ConfigKey.THROTTLE_INTERVAL_MS.key();
        }
        if (outcome == RunOutcome.GATED
                && decision.nextRunDelayMs()
                        < PeriodicTask.electPreferred(decision.config()).periodMs()) {
            return ConfigKey.RECHECK_INTERVAL_MS.key();
        }
        return ConfigKey.CHECK_INTERVAL_SECONDS.key();
    }

    /** One sentence for the log and {@code pacer status}. */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "run %d read the cluster in %.1f s, longer than the %.1f s interval it serves,"
                        + " so every run comes a read late; raise %s above the read's time",
                sequence,
                readMs / 1000.0,
                intervalMs / 1000.0,
                setting);
    }
}
