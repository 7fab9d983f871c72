package io.leaderpacer.agent;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.RunListener;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.core.SlowRead;
import io.leaderpacer.engine.ElectionDecision;
import org.slf4j.Logger;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Tells the log and the listeners about each run: a failed run as a warning, one that elected or gated as an info
 * line, a quiet one at debug; a run that read the cluster slower than the interval it serves as one warning when it
 * starts and one line when it ends, not a warning per run. A listener that throws is logged and the others are told.
 *
 * <p>Apart from {@link PacerAgent} because what an operator reads at 3 a.m. is its own concern: the agent decides
 * when runs happen, this decides what is said about them. Called under the agent's run lock, one run at a time.
 */
final class RunReports {

    /** The agent's logger, given by the agent: operators filter on the agent's name, not on this helper's. */
    private final Logger log;

    private final SecretRedactor redactor;
    /** Told about each run. */
    private final List<RunListener> listeners = new CopyOnWriteArrayList<>();
    /** Whether the last successful run read slower than the interval it serves. */
    private boolean readWasSlow;

    RunReports(Logger log, SecretRedactor redactor, Collection<RunListener> listeners) {
        this.log = log;
        this.redactor = redactor;
        this.listeners.addAll(listeners);
    }

    void addListener(RunListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void removeListener(RunListener listener) {
        listeners.remove(listener);
    }

    /** Logs the run, then tells every listener. */
    void report(RunRecord run) {
        log(run);
        for (RunListener l : listeners) {
            try {
                l.onRun(run);
            } catch (RuntimeException e) {
                log.warn("run listener {} failed: {}", l, redactor.describe(e));
            }
        }
    }

    private void log(RunRecord run) {
        logSlowRead(run);
        if (!run.succeeded()) {
            log.warn(run.summary());
        } else if (!run.results().isEmpty()
                || run.decision().map(ElectionDecision::gatedBrokerCount).orElse(0) > 0) {
            log.info(run.summary());
        } else {
            log.debug(run.summary());
        }
        if (log.isDebugEnabled()) {
            run.results().stream()
                    .filter(r -> r.outcome() != ElectionOutcome.ELECTED)
                    .forEach(r ->
                            log.debug("  {} -> {}: {} {}", r.partition(), r.targetLeader(), r.outcome(), r.detail()));
        }
    }

    /**
     * Warns when runs start to read the cluster slower than the interval they serve, and says when they stop; {@code
     * /status} shows it for as long as it lasts.
     */
    private void logSlowRead(RunRecord run) {
        if (!run.succeeded()) {
            return;
        }
        Optional<SlowRead> slow = SlowRead.of(run);
        if (slow.isPresent() && !readWasSlow) {
            log.warn(slow.get().describe());
        } else if (slow.isEmpty() && readWasSlow) {
            log.info("run {} read the cluster within the interval it serves again", run.sequence());
        }
        readWasSlow = slow.isPresent();
    }
}
