package io.leaderpacer.agent;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.coordination.ActiveRole;
import io.leaderpacer.agent.coordination.CoordinationStatus;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.dynamic.UnsafeTopicException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * When a coordinated agent runs: it joins its group (with back-off while the state topic cannot be checked), then
 * ticks every {@value #TICK_MS} ms on the agent's run thread, taking part in the group and running while it holds
 * the active role and a run is due.
 *
 * <p>Why a class of its own: a coordinated agent is scheduled differently from a single one. Its role may change
 * at any poll of the group, so runs cannot simply follow one another on the engine's delay; roles change only
 * inside a tick, never during a run; each takeover starts a new gate memory, as a controller failover does, and
 * sets the first run by the active role (its confirmation wait and the predecessor's pacing) rather than by this
 * instance's last run. This class is where the group's choice of active instance becomes the agent's state; the
 * agent keeps its lifecycle, its runs and the single-instance schedule, and lends them through {@link Agent}.
 *
 * <p>Threading: everything runs on the agent's run thread (the role's Kafka clients are used only there),
 * under the agent's run lock while the group is polled and a run is made; {@link #status()} may be read from any
 * thread.
 */
final class CoordinatedSchedule {

    private static final Logger LOG = LoggerFactory.getLogger(CoordinatedSchedule.class);

    /** Pause between two ticks: bounds how late a due run starts and how often the group is polled. */
    static final long TICK_MS = 250;

    /** What the schedule needs of its agent; every call is made on the agent's run thread. */
    interface Agent {
        /** The agent's lifecycle state now. */
        AgentState state();

        /**
         * Enters {@link AgentState#ACTIVE} or {@link AgentState#STANDBY}, unless the agent was closed meanwhile.
         * Called with the run lock held.
         *
         * @param newMemory start a new, empty gate memory (a takeover: as after a controller failover); false keeps
         *                  the memory (resuming the role after a rebalance in which no other instance acted)
         * @return false when the agent was closed and nothing changed
         */
        boolean enterRole(AgentState role, boolean newMemory);

        /** One run, recorded as every scheduled run is; returns its record. */
        RunRecord run();

        /** Runs the task on the run thread after the delay, unless the agent was closed. */
        void schedule(Runnable task, long delayMs);

        /** Joining failed for a reason that may pass: counts the attempt, shows the problem; returns the count. */
        int startupFailed(String problem);

        /** Joined: clears the failed attempts and the problem. */
        void started();

        /** Joining must not be retried: the agent refuses to run, with this cause. */
        void refuse(Exception cause);
    }

    /** Several instances, one active; its Kafka clients are used on the run thread only. */
    private final ActiveRole role;
    /** The agent whose state, runs and scheduler this drives. */
    private final Agent agent;
    /** The agent's run lock: serialises a tick with {@link PacerAgent#runOnce()} and with closing the role. */
    private final Object runLock;
    /** Delays between attempts to join the group when the state topic cannot be checked yet. */
    private final StartupBackoff backoff;
    /** Scrubs secrets from the messages of failures. */
    private final SecretRedactor redactor;

    /** The role's takeover count when the agent last started a new memory; guarded by {@link #runLock}. */
    private int seenTakeovers;
    /** Monotonic time: when a run is due and when a takeover may act. */
    private final Time time;
    /** Monotonic time of the next due run; guarded by {@link #runLock}. */
    private long nextRunAtNanos;

    CoordinatedSchedule(
            ActiveRole role, Agent agent, Object runLock, StartupBackoff backoff, SecretRedactor redactor, Time time) {
        this.role = role;
        this.agent = agent;
        this.runLock = runLock;
        this.backoff = backoff;
        this.redactor = redactor;
        this.time = time;
        this.nextRunAtNanos = time.nanoseconds();
    }

    /** This instance's place in its group. */
    CoordinationStatus status() {
        return role.status();
    }

    /** Checks the state topic and joins the group, then ticks; an unsafe topic refuses, other failures retry. */
    void join() {
        if (agent.state() != AgentState.STANDBY) {
            return;
        }
        try {
            role.join();
            agent.started();
            agent.schedule(this::tick, 0);
        } catch (UnsafeTopicException e) {
            LOG.error("not started: {}", e.getMessage());
            agent.refuse(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            String problem = "cannot check the state topic or join the group: " + redactor.describe(e);
            int attempts = agent.startupFailed(problem);
            long delay = backoff.delayMs(attempts);
            LOG.warn("{} (attempt {}); retrying in {} ms", problem, attempts, delay);
            agent.schedule(this::join, delay);
        }
    }

    /**
     * After each recorded run: hands the run to the role, which keeps the pacing for a successor. Called with
     * the run lock held.
     */
    void recordRun(RunRecord run) {
        role.recordRun(run);
    }

    /** Leaves the group and closes the role's clients; call with the run lock held, between ticks or after them. */
    void close() {
        role.close();
    }

    /**
     * One poll of the group (role changes happen inside it, never during a run), then the run if this instance is
     * active and a run is due.
     */
    private void tick() {
        AgentState state = agent.state();
        if (state != AgentState.STANDBY && state != AgentState.ACTIVE) {
            return;
        }
        try {
            synchronized (runLock) {
                role.poll();
                followRole();
                if (agent.state() == AgentState.ACTIVE && time.nanoseconds() - nextRunAtNanos >= 0) {
                    long delayMs = agent.run().nextRunDelayMs();
                    nextRunAtNanos = time.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(delayMs);
                    followRole();
                }
            }
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                return; // closing
            }
            LOG.error("coordinated tick failed unexpectedly: {}", redactor.describe(e));
        }
        agent.schedule(this::tick, TICK_MS);
    }

    /** Follows the group's choice: a takeover starts a new gate memory and waits as the role says; losing drops it. */
    private void followRole() {
        boolean active = role.isActive();
        int takeovers = role.takeovers();
        AgentState state = agent.state();
        if (active && (state != AgentState.ACTIVE || takeovers != seenTakeovers)) {
            long firstRun = time.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(role.firstRunDelayMs());
            boolean takeover = takeovers != seenTakeovers;
            if (agent.enterRole(AgentState.ACTIVE, takeover)) {
                // A takeover starts a new gate memory and takes its pacing from the predecessor's summary; resuming
                // after a rebalance (a standby joined or left, no one else acted) keeps both, so the gate's
                // hysteresis and max-wait clocks do not restart each time the group changes.
                nextRunAtNanos = takeover ? firstRun : Math.max(nextRunAtNanos, firstRun);
                seenTakeovers = takeovers;
            }
        } else if (!active && state == AgentState.ACTIVE) {
            agent.enterRole(AgentState.STANDBY, false);
        }
    }
}
