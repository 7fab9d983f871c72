package io.leaderpacer.agent;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.coordination.CoordinationStatus;
import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.core.ReplicaOrderStep;
import io.leaderpacer.agent.core.RunListener;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.election.RunCycle;
import io.leaderpacer.agent.kafka.AutoRebalanceCheck;
import io.leaderpacer.agent.kafka.ClusterContact;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.kafka.ClusterVersionCheck;
import io.leaderpacer.agent.kafka.LeaderElector;
import io.leaderpacer.agent.kafka.PermissionCheck;
import io.leaderpacer.agent.kafka.TlsDiagnosis;
import io.leaderpacer.agent.pacing.PacingLoop;
import io.leaderpacer.agent.pacing.PacingLoopBuilder;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.schedule.PeriodicTask;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The agent: Kafka's periodic preferred-leader task, run from outside the controller with the engine's gate,
 * throttle and round-robin, through Kafka's Admin client.
 *
 * <p>Why: operators cannot wait for the controller to change. With {@code auto.leader.rebalance.enable=false} on
 * the cluster, this runs the same task the controller would: each run reads the cluster, lets the
 * {@link ReplicaOrderStep} apply the KIP-491 order, asks the engine, and sends the decided batch as preferred
 * elections, recording every partition's outcome. The next run follows on the engine's schedule (check interval,
 * or the throttle interval after a capped run, or five minutes after a failed run, as Kafka's
 * {@code PeriodicTask} does). The gate's memory is kept from run to run; a new agent starts with an empty memory
 * exactly as a new controller does.
 *
 * <p>{@link #start()} first makes contact (bounded exponential back-off, one log line per attempt) and checks that
 * the brokers' own automatic rebalancing is off; with it on, the agent refuses to run unless told otherwise.
 * {@link #runOnce()} runs one cycle synchronously (tests, tools); {@link #dryRun()} decides without changing
 * anything. Time comes from an injected Kafka {@link Time}, runs from an injected scheduler, so tests and the demo can
 * drive it. Runs never overlap.
 *
 * <p>With {@link AgentSettings#coordination} several agents may run against one cluster and exactly one acts:
 * after the start-up check the agent joins its group as a standby and follows a {@link CoordinatedSchedule}
 * instead: it runs only while it holds the active role, and on each takeover the gate's memory starts empty, as
 * after a controller failover. Every Admin mutation is checked by the active role's {@link ActionGuard} first.
 * Without coordination nothing of this happens.
 */
public final class PacerAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PacerAgent.class);

    /** What one run does: read, reorder, decide, elect. */
    private final RunCycle cycle;
    /** Contact and safety check before the first run. */
    private final StartupCheck startup;
    /** Base configuration plus dynamic overrides, previous value on error. */
    private final PolicyResolver policy;
    /** Runs the start-up attempts and the runs, one at a time. */
    private final ScheduledExecutorService scheduler;
    /** Whether {@link #close()} shuts the scheduler down (it does when the agent created it). */
    private final boolean ownsScheduler;
    /** Scrubs secrets from every message the agent logs or records. */
    private final SecretRedactor redactor;
    /** How the cluster is named in messages (its bootstrap servers; never secret). */
    private final String clusterLabel;
    /** Recent runs for /status and the demo. */
    private final RunHistory history;
    /** What is said about each run, and to whom. */
    private final RunReports reports;
    /** Completes when the agent is closed, or exceptionally when it refuses to run. */
    private final CompletableFuture<Void> termination = new CompletableFuture<>();
    /** Serialises runs: scheduled runs and {@link #runOnce()} never overlap. */
    private final Object runLock = new Object();

    /** Where the lifecycle stands; read from any thread, changed under this object's monitor. */
    private volatile AgentState state = AgentState.NEW;
    /** The gate's memory from the previous run; guarded by {@link #runLock}. */
    private BalancerMemory memory = BalancerMemory.empty();
    /** Number of the last run; guarded by {@link #runLock}. */
    private long sequence;
    /** Failed attempts to reach the cluster since start (0 once running). */
    private volatile int startupAttempts;
    /** Why the last start-up attempt failed, for /status; null when none failed. */
    private volatile String startupProblem;
    /** The next scheduled task, cancelled by close. */
    private ScheduledFuture<?> next;
    /** The coordinated loop when several instances share the cluster; null for a single agent. */
    private final CoordinatedSchedule coordinated;
    /** Catch-up pacing's looks, on their own schedule, serialised with the runs. */
    private final PacingSchedule pacing;

    private PacerAgent(Builder b) {
        this.redactor = b.redactor;
        this.cycle = new RunCycle(
                new ClusterReader(b.admin, b.requestTimeout, b.describeBatchTopics),
                b.orderStep,
                new LeaderElector(
                        b.admin,
                        b.requestTimeout,
                        b.electionBatchSize,
                        b.redactor,
                        b.coordination != null ? b.coordination : ActionGuard.NONE),
                b.time,
                b.redactor);
        this.coordinated = b.coordination == null
                ? null
                : new CoordinatedSchedule(b.coordination, new ScheduleAccess(), runLock, b.backoff, b.redactor, b.time);
        Duration contact = b.contactTimeout.compareTo(b.requestTimeout) < 0 ? b.contactTimeout : b.requestTimeout;
        this.startup = new StartupCheck(
                t -> ClusterContact.anyBroker(b.admin, t),
                contact,
                new ClusterVersionCheck(b.admin, b.requestTimeout),
                PermissionCheck.forAgent(
                        b.admin,
                        b.requestTimeout,
                        Optional.ofNullable(b.coordination).map(c -> c.status().group())),
                new AutoRebalanceCheck(b.admin, b.requestTimeout),
                b.allowAutoRebalance,
                b.backoff,
                b.redactor,
                b.clusterLabel,
                TlsDiagnosis.of(b.clientProperties, b.clusterLabel));
        this.policy = new PolicyResolver(b.basePolicy, b.configSource, b.redactor);
        this.ownsScheduler = b.scheduler == null;
        this.scheduler = b.scheduler != null
                ? b.scheduler
                : Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "leader-pacer-agent");
                    t.setDaemon(true);
                    return t;
                });
        this.clusterLabel = b.clusterLabel;
        this.history = new RunHistory(b.historySize);
        this.reports = new RunReports(LOG, b.redactor, b.listeners);
        PacingLoopBuilder pacingBuilder = PacingLoop.builder(b.admin, b.requestTimeout, b.describeBatchTopics)
                .ledger(b.ledgerStore)
                .guard(b.coordination != null ? b.coordination : ActionGuard.NONE)
                .canary(b.canary)
                .time(b.time)
                .redactor(b.redactor);
        if (b.canaryClient != null) {
            pacingBuilder.canaryClient(b.canaryClient, b.canaryTopic);
        }
        this.pacing = new PacingSchedule(
                pacingBuilder.build(),
                () -> policy.resolve().pacing(),
                () -> state,
                scheduler,
                runLock,
                b.pacingListeners,
                redactor);
    }

    /** A builder for an agent on this Admin client (owned by the caller, who closes it after the agent). */
    public static Builder builder(Admin admin) {
        return new Builder(admin);
    }

    /**
     * Starts the agent in the background: contact and safety check, then runs on the engine's schedule.
     * Follow {@link #termination()} to learn whether it refused to run.
     */
    public synchronized void start() {
        if (state != AgentState.NEW) {
            throw new IllegalStateException("agent already started (state " + state + ")");
        }
        state = AgentState.STARTING;
        schedule(this::startupAttempt, 0);
    }

    /**
     * Completes normally when the agent is closed; exceptionally with {@link AutoRebalanceEnabledException} when
     * it refused to run, or with Kafka's authentication/authorization error when it may not do its job.
     */
    public CompletableFuture<Void> termination() {
        return termination;
    }

    /** One run now, on the caller's thread (after any run in progress): read, reorder, decide, elect. */
    public RunRecord runOnce() {
        return execute(false);
    }

    /**
     * One decision without side effects: read and decide, skip the reorder step, send nothing, keep the gate's
     * memory unchanged. Not added to the history, listeners not told.
     */
    public RunRecord dryRun() {
        return execute(true);
    }

    public AgentState state() {
        return state;
    }

    /** This instance's place in its group; empty for a single agent without coordination. */
    public Optional<CoordinationStatus> coordination() {
        return coordinated == null ? Optional.empty() : Optional.of(coordinated.status());
    }

    /** Recent runs, oldest first. */
    public List<RunRecord> history() {
        return history.all();
    }

    public Optional<RunRecord> lastRun() {
        return history.last();
    }

    /** Failed attempts to reach the cluster since start (0 once running). */
    public int startupAttempts() {
        return startupAttempts;
    }

    /** Why the agent has not started yet (last failed attempt), if it has not. */
    public Optional<String> startupProblem() {
        return Optional.ofNullable(startupProblem);
    }

    /** A configuration problem that kept the previous policy in force at the last run, if any. */
    public Optional<String> configurationProblem() {
        return policy.problem();
    }

    /** The cluster's name in messages (its bootstrap servers). */
    public String clusterLabel() {
        return clusterLabel;
    }

    public void addListener(RunListener listener) {
        reports.addListener(listener);
    }

    public void removeListener(RunListener listener) {
        reports.removeListener(listener);
    }

    /**
     * Stops scheduling runs (a run in progress is interrupted), after restoring the throttle values catch-up pacing
     * set when this instance is the one acting. Does not close the Admin client.
     */
    @Override
    public void close() {
        boolean acting;
        synchronized (this) {
            if (state == AgentState.STOPPED) {
                return;
            }
            // Acting: started and running alone or as the active instance, or driven by a caller (runOnce,
            // paceOnce) that left pacing owning throttle values.
            acting = state == AgentState.RUNNING
                    || state == AgentState.ACTIVE
                    || (state == AgentState.NEW && pacing.ownsThrottles());
            pacing.stop();
            if (next != null) {
                next.cancel(false);
            }
        }
        if (acting) {
            pacing.restore();
        }
        pacing.closeCanary();
        synchronized (this) {
            state = AgentState.STOPPED;
        }
        // Outside the lock: the run thread may be waiting for it in schedule(); it then sees STOPPED and returns.
        if (ownsScheduler) {
            scheduler.shutdownNow();
            try {
                scheduler.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (coordinated != null) {
            // After the run thread stopped (or between its ticks): the active role's clients are the run thread's.
            synchronized (runLock) {
                coordinated.close();
            }
        }
        termination.complete(null);
    }

    private void startupAttempt() {
        if (state != AgentState.STARTING) {
            return;
        }
        StartupCheck.AttemptResult result;
        if (startupProblem == null) {
            startupProblem = startup.pending(startupAttempts + 1);
        }
        try {
            result = startup.attempt(startupAttempts + 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (result instanceof StartupCheck.Retry retry) {
            startupAttempts++;
            startupProblem = retry.problem();
            schedule(this::startupAttempt, retry.delayMs());
        } else if (result instanceof StartupCheck.Refused refused) {
            startupProblem = "refused to start: "
                    + redactor.describe(refused.cause()).lines().findFirst().orElse("");
            refuse(refused.cause());
        } else {
            synchronized (this) {
                if (state != AgentState.STARTING) {
                    return;
                }
                state = coordinated != null ? AgentState.STANDBY : AgentState.RUNNING;
            }
            startupAttempts = 0;
            startupProblem = null;
            if (coordinated != null) {
                coordinated.join();
            } else {
                schedule(this::scheduledRun, 0);
            }
            pacing.startChain(0);
        }
    }

    /** The last catch-up pacing look, if there was one. */
    public Optional<PacingReport> lastPacing() {
        return pacing.last();
    }

    /**
     * One catch-up pacing look now, on the caller's thread (after any run in progress): tests and tools. The agent
     * also looks on its own schedule once started.
     */
    public PacingReport paceOnce() throws InterruptedException {
        return pacing.lookNow();
    }

    /** Whether catch-up pacing owns a replication throttle value now, as its ledger records it (the active instance). */
    public boolean pacingOwnsThrottles() {
        return pacing.ownsThrottles();
    }

    /** What catch-up pacing would decide and change now, changing nothing (for {@code pacer plan}). */
    public PacingReport pacingPreview() throws InterruptedException {
        return pacing.preview();
    }

    private void scheduledRun() {
        if (state != AgentState.RUNNING) {
            return;
        }
        long delay;
        try {
            delay = execute(false).nextRunDelayMs();
        } catch (RuntimeException e) {
            // A bug must not end the schedule: log it and retry as Kafka retries a failed task.
            LOG.error("run failed unexpectedly", redactor.scrubbed(e));
            delay = PeriodicTask.FAILURE_RETRY_MS;
        }
        schedule(this::scheduledRun, delay);
    }

    /** Refuses to run: the start-up check or the state topic said so; {@link #termination()} carries the cause. */
    private void refuse(Throwable cause) {
        synchronized (this) {
            state = AgentState.REFUSED;
        }
        termination.completeExceptionally(cause);
    }

    private synchronized void schedule(Runnable task, long delayMs) {
        if (state == AgentState.STOPPED || scheduler.isShutdown()) {
            return;
        }
        next = scheduler.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    }

    private RunRecord execute(boolean dry) {
        synchronized (runLock) {
            long seq = dry ? sequence : ++sequence;
            RunCycle.Outcome outcome = cycle.run(seq, policy.resolve(), memory, dry);
            RunRecord record = outcome.record();
            if (!dry) {
                memory = outcome.nextMemory();
                if (coordinated != null) {
                    coordinated.recordRun(record);
                }
                history.add(record);
                reports.report(record);
            }
            return record;
        }
    }

    /** How the {@link CoordinatedSchedule} drives this agent: its state, its runs and its scheduler. */
    private final class ScheduleAccess implements CoordinatedSchedule.Agent {
        @Override
        public AgentState state() {
            return state;
        }

        @Override
        public boolean enterRole(AgentState role, boolean newMemory) {
            synchronized (PacerAgent.this) {
                if (state == AgentState.STOPPED) {
                    return false;
                }
                if (newMemory) {
                    memory = BalancerMemory.empty();
                    pacing.takeover();
                }
                if (role == AgentState.STANDBY) {
                    // Demoted: the canary's writes are the active instance's to make.
                    pacing.closeCanary();
                }
                AgentState was = state;
                state = role;
                if (role == AgentState.ACTIVE && was != AgentState.ACTIVE) {
                    // A standby looks at pacing only every idle period: the active role looks at once, so that a
                    // takeover or a rebalance leaves a catch-up unpaced for one look at most, not for the idle period.
                    pacing.startChain(0);
                }
                return true;
            }
        }

        @Override
        public RunRecord run() {
            return execute(false);
        }

        @Override
        public void schedule(Runnable task, long delayMs) {
            PacerAgent.this.schedule(task, delayMs);
        }

        @Override
        public int startupFailed(String problem) {
            int attempts = ++startupAttempts;
            startupProblem = problem;
            return attempts;
        }

        @Override
        public void started() {
            startupAttempts = 0;
            startupProblem = null;
        }

        @Override
        public void refuse(Exception cause) {
            PacerAgent.this.refuse(cause);
        }
    }

    /** Builds a {@link PacerAgent} from its {@link AgentSettings}; only the Admin client is required. */
    public static final class Builder extends AgentSettings<Builder> {
        private Builder(Admin admin) {
            super(admin);
        }

        @Override
        Builder self() {
            return this;
        }

        public PacerAgent build() {
            return new PacerAgent(this);
        }
    }
}
