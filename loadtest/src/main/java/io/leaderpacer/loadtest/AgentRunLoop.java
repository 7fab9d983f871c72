package io.leaderpacer.loadtest;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.pacing.Canary;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.loadtest.testbed.TargetCluster;
import org.apache.kafka.clients.admin.Admin;

import java.util.function.UnaryOperator;

/**
 * Runs the agent (the one {@code pacer run} ships) on the engine's schedule on a thread of its own: each run's
 * {@link RunRecord#nextRunDelayMs()} decides when the next one starts (check interval, or the
 * throttle interval after a capped run), exactly as the agent's own scheduler would.
 *
 * <p>Why not the agent's own scheduler: after a failed run Kafka's task, and so the agent, waits
 * five minutes. A demo cannot; a run can fail while a broker restarts (a metadata request timing
 * out), so here a failed run is retried after {@link #FAILED_RUN_RETRY_MS}. Everything else is the
 * agent's.
 */
public final class AgentRunLoop implements AutoCloseable {

    /** Retry delay after a failed run, instead of Kafka's five minutes. */
    public static final long FAILED_RUN_RETRY_MS = 1000;

    private final PacerAgent agent;
    private final Thread thread;
    /** Catch-up pacing's looks, when the policy paces: on a thread of their own, as the agent's scheduler would. */
    private final Thread pacingThread;

    private final long pacingIntervalMs;
    /** Cleared by {@link #close()}, which also wakes the thread from its wait between runs. */
    private volatile boolean running = true;

    public AgentRunLoop(PacerAgent agent, String name) {
        this(agent, name, 0);
    }

    /**
     * @param pacingIntervalMs when &gt; 0, catch-up pacing looks this often too (the policy's pacing interval)
     */
    public AgentRunLoop(PacerAgent agent, String name, long pacingIntervalMs) {
        this.agent = agent;
        this.thread = new Thread(this::loop, name);
        this.thread.setDaemon(true);
        this.pacingIntervalMs = pacingIntervalMs;
        this.pacingThread = pacingIntervalMs > 0 ? new Thread(this::paceLoop, name + "-pacing") : null;
        if (pacingThread != null) {
            pacingThread.setDaemon(true);
        }
    }

    /**
     * The agent {@code pacer run} would run with this policy on the load test's cluster, in a loop of its own that
     * also paces when the policy does; {@code listeners} adds what the caller records of its runs.
     */
    static AgentRunLoop forPolicy(
            NamedPolicy policy, Admin admin, TargetCluster target, UnaryOperator<PacerAgent.Builder> listeners) {
        PacerAgent agent = listeners
                .apply(PacerAgent.builder(admin)
                        .basePolicy(policy.config())
                        .clusterLabel("the load-test cluster")
                        .canaryClient(target.clientProperties(), Canary.DEFAULT_TOPIC))
                .build();
        CatchUpPacing paces = policy.config().pacing();
        return new AgentRunLoop(
                agent, "loadtest-agent", paces.enabled() ? paces.timing().intervalMs() : 0);
    }

    public void start() {
        thread.start();
        if (pacingThread != null) {
            pacingThread.start();
        }
    }

    private void paceLoop() {
        while (running) {
            try {
                agent.paceOnce();
            } catch (InterruptedException e) {
                return;
            }
            if (!pause(pacingIntervalMs)) {
                return;
            }
        }
    }

    private void loop() {
        while (running) {
            RunRecord run = agent.runOnce();
            if (!pause(run.succeeded() ? run.nextRunDelayMs() : FAILED_RUN_RETRY_MS)) {
                return;
            }
        }
    }

    /** Waits this long unless {@link #close()} comes first; false when interrupted. */
    private boolean pause(long delayMs) {
        long wakeAt = System.nanoTime() + delayMs * 1_000_000L;
        synchronized (this) {
            long left;
            while (running && (left = wakeAt - System.nanoTime()) > 0) {
                try {
                    wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Stops after the run in progress (waits for it, up to 30 s; a run is never interrupted half
     * way) and closes the agent, which restores any throttle catch-up pacing set.
     */
    @Override
    public void close() {
        synchronized (this) {
            running = false;
            notifyAll();
        }
        try {
            thread.join(30_000);
            if (pacingThread != null) {
                pacingThread.join(30_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        agent.close();
    }
}
