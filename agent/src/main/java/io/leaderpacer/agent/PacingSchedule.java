package io.leaderpacer.agent;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.pacing.PacingLoop;
import io.leaderpacer.engine.config.CatchUpPacing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * When catch-up pacing looks: a chain of looks on the agent's scheduler while this instance acts (a single agent
 * running, or the group's active one), each serialised with the runs by the agent's run lock, and the restore of
 * what pacing set on a clean stop.
 *
 * <p>Why a class of its own: pacing looks follow their own interval, not the engine's run delay, and a takeover
 * must start a new chain at once while the old one stops scheduling; keeping that apart from the runs' schedule
 * leaves {@link PacerAgent} its lifecycle. Once {@link #stop()} is called no look changes anything: a look already
 * waiting for the run lock returns, so that it cannot set again what the restore removed.
 */
final class PacingSchedule {

    private static final Logger LOG = LoggerFactory.getLogger(PacingSchedule.class);

    /** Between looks while pacing is off and owns nothing: how soon turning it on takes effect. */
    private static final long IDLE_MS = 10_000;

    private final PacingLoop pacing;
    /** The policy in force, read before each look. */
    private final Supplier<CatchUpPacing> policy;
    /** The agent's lifecycle state; looks are made only while it is RUNNING or ACTIVE. */
    private final Supplier<AgentState> state;
    /** The agent's scheduler (shared with its runs). */
    private final ScheduledExecutorService scheduler;
    /** The agent's run lock: a look is never made during a run. */
    private final Object runLock;
    /** Told about each look. */
    private final List<Consumer<PacingReport>> listeners;

    private final SecretRedactor redactor;
    /** Set by {@link #stop()} before the restore: a look already waiting for the run lock must change nothing. */
    private volatile boolean stopped;
    /** The next look, cancelled by {@link #stop()}; guarded by this. */
    private ScheduledFuture<?> next;
    /** The chain of looks in force: a look of an older chain schedules no next one; guarded by this. */
    private long chain;

    PacingSchedule(
            PacingLoop pacing,
            Supplier<CatchUpPacing> policy,
            Supplier<AgentState> state,
            ScheduledExecutorService scheduler,
            Object runLock,
            List<Consumer<PacingReport>> listeners,
            SecretRedactor redactor) {
        this.pacing = pacing;
        this.policy = policy;
        this.state = state;
        this.scheduler = scheduler;
        this.runLock = runLock;
        this.listeners = List.copyOf(listeners);
        this.redactor = redactor;
    }

    /** The last look, if there was one. */
    Optional<PacingReport> last() {
        return pacing.last();
    }

    /** Whether pacing owns a throttle value now. */
    boolean ownsThrottles() {
        return pacing.ownsThrottles();
    }

    /** A takeover: the ledger is read again and each episode resumes from it. */
    void takeover() {
        pacing.takeover();
    }

    /** Closes the canary's client (a demoted or closing instance writes no canary records). */
    void closeCanary() {
        pacing.closeCanary();
    }

    /** One look now, on the caller's thread, after any run in progress. */
    PacingReport lookNow() throws InterruptedException {
        synchronized (runLock) {
            if (stopped) {
                throw new IllegalStateException("the agent is closed");
            }
            PacingReport r = pacing.tick(policy.get());
            notifyListeners(r);
            return r;
        }
    }

    /** What a look would decide and change now, changing nothing. */
    PacingReport preview() throws InterruptedException {
        synchronized (runLock) {
            return pacing.preview(policy.get());
        }
    }

    /** Starts a new chain of looks, the first after {@code delayMs}; the chain before it schedules no more. */
    synchronized void startChain(long delayMs) {
        chain++;
        if (next != null) {
            next.cancel(false);
        }
        schedule(delayMs, chain);
    }

    /** No more looks: the next is cancelled and one waiting for the run lock returns without a change. */
    synchronized void stop() {
        stopped = true;
        if (next != null) {
            next.cancel(false);
        }
    }

    /** Restores what pacing set, on a clean stop of the acting instance; a failure is logged, not thrown. */
    void restore() {
        try {
            synchronized (runLock) {
                notifyListeners(pacing.restore());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("catch-up pacing could not restore its throttle on stop: {}", redactor.describe(e));
        }
    }

    /**
     * A look while this instance acts, then the next: after the pacing interval while pacing is on or owns a
     * throttle value, else after the idle period, to notice pacing being turned on.
     */
    private void tick(long ofChain) {
        AgentState s = state.get();
        if (s == AgentState.STOPPED || s == AgentState.REFUSED) {
            return;
        }
        long delay = IDLE_MS;
        if (s == AgentState.RUNNING || s == AgentState.ACTIVE) {
            try {
                CatchUpPacing config = policy.get();
                synchronized (runLock) {
                    if (stopped) {
                        return;
                    }
                    notifyListeners(pacing.tick(config));
                }
                if (config.enabled() || pacing.ownsThrottles()) {
                    delay = config.timing().intervalMs();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("catch-up pacing failed unexpectedly", redactor.scrubbed(e));
            }
        }
        schedule(delay, ofChain);
    }

    /** The next look of a chain, unless a newer chain replaced it or the schedule stopped. */
    private synchronized void schedule(long delayMs, long ofChain) {
        if (stopped || state.get() == AgentState.STOPPED || scheduler.isShutdown() || ofChain != chain) {
            return;
        }
        next = scheduler.schedule(() -> tick(ofChain), delayMs, TimeUnit.MILLISECONDS);
    }

    private void notifyListeners(PacingReport report) {
        for (Consumer<PacingReport> l : listeners) {
            try {
                l.accept(report);
            } catch (RuntimeException e) {
                LOG.warn("pacing listener {} failed: {}", l, redactor.describe(e));
            }
        }
    }
}
