package io.leaderpacer.agent;

import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.coordination.ActionGuard;
import io.leaderpacer.agent.coordination.ActiveInstanceElection;
import io.leaderpacer.agent.coordination.CoordinationStatus;
import io.leaderpacer.agent.dynamic.UnsafeTopicException;
import io.leaderpacer.agent.kafka.AutoRebalanceCheck;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.kafka.LeaderElector;
import io.leaderpacer.agent.kafka.PermissionCheck;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.schedule.PeriodicTask;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
 * anything. Time comes from an injected {@link Clock}, runs from an injected scheduler, so tests and the demo can
 * drive it. Runs never overlap.
 *
 * <p>With {@link Builder#coordination} several agents may run against one cluster and exactly one acts: after the
 * start-up check the agent joins its group as a standby and ticks every {@value #TICK_MS} ms on its run thread:
 * it takes part in the group (role changes happen there, between runs) and, while active and a run is due, runs.
 * On each takeover the gate's memory starts empty, as after a controller failover, and the first run waits for
 * the predecessor's confirmation to expire and, after a capped run, for its throttle interval. Every Admin
 * mutation is checked by the election's {@link ActionGuard} first. Without coordination nothing of this happens.
 */
public final class PacerAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PacerAgent.class);

    /** Pause between two coordinated ticks: bounds how late a due run starts and how often the group is polled. */
    static final long TICK_MS = 250;

    /** What one run does: read, reorder, decide, elect. */
    private final RunCycle cycle;
    /** Contact and safety check before the first run. */
    private final StartupCheck startup;
    /** Delays between attempts to join the group when the state topic cannot be checked yet. */
    private final StartupBackoff backoff;
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
    /** Told about each run. */
    private final List<RunListener> listeners = new CopyOnWriteArrayList<>();
    /** Completes when the agent is closed, or exceptionally when it refuses to run. */
    private final CompletableFuture<Void> termination = new CompletableFuture<>();
    /** Serialises runs: scheduled runs and {@link #runOnce()} never overlap. */
    private final Object runLock = new Object();

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
    /** Several instances, one active; null for a single agent. Used on the run thread only (it holds Kafka clients). */
    private final ActiveInstanceElection coordination;
    /** The election's takeover count when this agent last reset its memory; guarded by {@link #runLock}. */
    private int seenTakeovers;
    /** Coordinated: monotonic time of the next due run; guarded by {@link #runLock}. */
    private long nextRunAtNanos = System.nanoTime();

    private PacerAgent(Builder b) {
        this.redactor = b.redactor;
        this.cycle = new RunCycle(new ClusterReader(b.admin, b.requestTimeout, b.describeBatchTopics), b.orderStep,
                new LeaderElector(b.admin, b.requestTimeout, b.electionBatchSize, b.redactor,
                        b.coordination != null ? b.coordination : ActionGuard.NONE), b.clock, b.redactor);
        this.coordination = b.coordination;
        this.backoff = b.backoff;
        this.startup = new StartupCheck(PermissionCheck.forAgent(b.admin, b.requestTimeout,
                        Optional.ofNullable(b.coordination).map(c -> c.status().group())),
                new AutoRebalanceCheck(b.admin, b.requestTimeout), b.allowAutoRebalance, b.backoff, b.redactor, b.clusterLabel);
        this.policy = new PolicyResolver(b.basePolicy, b.configSource, b.redactor);
        this.ownsScheduler = b.scheduler == null;
        this.scheduler = b.scheduler != null ? b.scheduler : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "leader-pacer-agent");
            t.setDaemon(true);
            return t;
        });
        this.clusterLabel = b.clusterLabel;
        this.history = new RunHistory(b.historySize);
        this.listeners.addAll(b.listeners);
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
        return coordination == null ? Optional.empty() : Optional.of(coordination.status());
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
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeListener(RunListener listener) {
        listeners.remove(listener);
    }

    /** Stops scheduling runs (a run in progress is interrupted). Does not close the Admin client. */
    @Override
    public void close() {
        synchronized (this) {
            if (state == AgentState.STOPPED) {
                return;
            }
            state = AgentState.STOPPED;
            if (next != null) {
                next.cancel(false);
            }
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
        if (coordination != null) {
            // After the run thread stopped (or between its ticks): the election's clients are the run thread's.
            synchronized (runLock) {
                coordination.close();
            }
        }
        termination.complete(null);
    }

    private void startupAttempt() {
        if (state != AgentState.STARTING) {
            return;
        }
        StartupCheck.Verdict verdict;
        try {
            verdict = startup.attempt(startupAttempts + 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (verdict instanceof StartupCheck.Retry retry) {
            startupAttempts++;
            startupProblem = retry.problem();
            schedule(this::startupAttempt, retry.delayMs());
        } else if (verdict instanceof StartupCheck.Refused refused) {
            synchronized (this) {
                state = AgentState.REFUSED;
            }
            termination.completeExceptionally(refused.cause());
        } else {
            synchronized (this) {
                if (state != AgentState.STARTING) {
                    return;
                }
                state = coordination != null ? AgentState.STANDBY : AgentState.RUNNING;
            }
            startupAttempts = 0;
            startupProblem = null;
            if (coordination != null) {
                joinGroup();
            } else {
                schedule(this::scheduledRun, 0);
            }
        }
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

    /** Coordinated: checks the state topic and joins the group; an unsafe topic refuses, other failures retry. */
    private void joinGroup() {
        if (state != AgentState.STANDBY) {
            return;
        }
        try {
            coordination.join();
            startupAttempts = 0;
            startupProblem = null;
            schedule(this::coordinatedTick, 0);
        } catch (UnsafeTopicException e) {
            LOG.error("not started: {}", e.getMessage());
            synchronized (this) {
                state = AgentState.REFUSED;
            }
            termination.completeExceptionally(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            startupAttempts++;
            startupProblem = "cannot check the state topic or join the group: " + redactor.describe(e);
            long delay = backoff.delayMs(startupAttempts);
            LOG.warn("{} (attempt {}); retrying in {} ms", startupProblem, startupAttempts, delay);
            schedule(this::joinGroup, delay);
        }
    }

    /**
     * Coordinated: one poll of the group (role changes happen inside it, never during a run), then the run if this
     * instance is active and a run is due.
     */
    private void coordinatedTick() {
        if (state != AgentState.STANDBY && state != AgentState.ACTIVE) {
            return;
        }
        try {
            synchronized (runLock) {
                coordination.poll();
                followRole();
                if (state == AgentState.ACTIVE && System.nanoTime() - nextRunAtNanos >= 0) {
                    long delayMs = execute(false).nextRunDelayMs();
                    nextRunAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
                    followRole();
                }
            }
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                return; // closing
            }
            LOG.error("coordinated tick failed unexpectedly: {}", redactor.describe(e));
        }
        schedule(this::coordinatedTick, TICK_MS);
    }

    /** Follows the election's role: a takeover starts a new gate memory and waits as the election says; losing drops it. */
    private void followRole() {
        boolean active = coordination.isActive();
        synchronized (this) {
            if (state == AgentState.STOPPED) {
                return;
            }
            if (active && (state != AgentState.ACTIVE || coordination.takeovers() != seenTakeovers)) {
                long firstRun = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(coordination.firstRunDelayMs());
                boolean takeover = coordination.takeovers() != seenTakeovers;
                // A takeover's pacing comes from the predecessor's summary; resuming after a rebalance keeps our own.
                nextRunAtNanos = takeover ? firstRun : Math.max(nextRunAtNanos, firstRun);
                seenTakeovers = coordination.takeovers();
                memory = BalancerMemory.empty();
                state = AgentState.ACTIVE;
            } else if (!active && state == AgentState.ACTIVE) {
                memory = BalancerMemory.empty();
                state = AgentState.STANDBY;
            }
        }
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
                if (coordination != null) {
                    coordination.recordRun(record);
                }
                history.add(record);
                log(record);
                notifyListeners(record);
            }
            return record;
        }
    }

    private static void log(RunRecord run) {
        if (!run.succeeded()) {
            LOG.warn(run.summary());
        } else if (!run.results().isEmpty() || run.decision().map(ElectionDecision::gatedBrokerCount).orElse(0) > 0) {
            LOG.info(run.summary());
        } else {
            LOG.debug(run.summary());
        }
        if (LOG.isDebugEnabled()) {
            run.results().stream().filter(r -> r.outcome() != ElectionOutcome.ELECTED)
                    .forEach(r -> LOG.debug("  {} -> {}: {} {}", r.partition(), r.targetLeader(), r.outcome(), r.detail()));
        }
    }

    private void notifyListeners(RunRecord record) {
        for (RunListener l : listeners) {
            try {
                l.onRun(record);
            } catch (RuntimeException e) {
                LOG.warn("run listener {} failed: {}", l, redactor.describe(e));
            }
        }
    }

    /** Settings for a {@link PacerAgent}; only the Admin client is required. */
    public static final class Builder {
        private final Admin admin;
        private Callable<PacerConfig> basePolicy = PacerConfig::defaults;
        private ConfigSource configSource = ConfigSource.NONE;
        private ReplicaOrderStep orderStep = ReplicaOrderStep.IDENTITY;
        private Clock clock = Clock.systemUTC();
        private ScheduledExecutorService scheduler;
        private Duration requestTimeout = Duration.ofSeconds(30);
        private int describeBatchTopics = 200;
        private int electionBatchSize = 1000;
        private boolean allowAutoRebalance;
        private StartupBackoff backoff = StartupBackoff.DEFAULT;
        private SecretRedactor redactor = SecretRedactor.none();
        private String clusterLabel = "the cluster";
        private int historySize = 200;
        private final List<RunListener> listeners = new ArrayList<>();
        private ActiveInstanceElection coordination;

        private Builder(Admin admin) {
            this.admin = Objects.requireNonNull(admin, "admin");
        }

        /**
         * Takes the settings of a properties file: its policy as the (fixed) base, its time-out, batch size,
         * secrets and bootstrap servers. Use {@link #basePolicy(Callable)} afterwards to re-read the file each run.
         */
        public Builder properties(AgentProperties properties) {
            basePolicy(properties.policy());
            requestTimeout(properties.requestTimeout());
            describeBatchTopics(properties.describeBatchTopics());
            redactor(properties.redactor());
            clusterLabel(properties.bootstrapServers());
            return this;
        }

        /** A fixed base policy (dynamic overrides still apply on top). */
        public Builder basePolicy(PacerConfig config) {
            Objects.requireNonNull(config, "config");
            this.basePolicy = () -> config;
            return this;
        }

        /** The base policy, asked on every run (e.g. re-reading the properties file); errors keep the previous one. */
        public Builder basePolicy(Callable<PacerConfig> source) {
            this.basePolicy = Objects.requireNonNull(source, "source");
            return this;
        }

        public Builder configSource(ConfigSource source) {
            this.configSource = Objects.requireNonNull(source, "source");
            return this;
        }

        public Builder replicaOrderStep(ReplicaOrderStep step) {
            this.orderStep = Objects.requireNonNull(step, "step");
            return this;
        }

        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /** The scheduler for runs (owned by the caller); default: a daemon thread of the agent's own. */
        public Builder scheduler(ScheduledExecutorService value) {
            this.scheduler = Objects.requireNonNull(value, "scheduler");
            return this;
        }

        public Builder requestTimeout(Duration value) {
            this.requestTimeout = Objects.requireNonNull(value, "requestTimeout");
            return this;
        }

        public Builder describeBatchTopics(int value) {
            this.describeBatchTopics = value;
            return this;
        }

        /** Most partitions per electLeaders request (default 1000). */
        public Builder electionBatchSize(int value) {
            this.electionBatchSize = value;
            return this;
        }

        public Builder allowAutoRebalance(boolean value) {
            this.allowAutoRebalance = value;
            return this;
        }

        public Builder startupBackoff(StartupBackoff value) {
            this.backoff = Objects.requireNonNull(value, "backoff");
            return this;
        }

        public Builder redactor(SecretRedactor value) {
            this.redactor = Objects.requireNonNull(value, "redactor");
            return this;
        }

        /** How the cluster is named in log lines (its bootstrap servers). */
        public Builder clusterLabel(String value) {
            this.clusterLabel = Objects.requireNonNull(value, "clusterLabel");
            return this;
        }

        /** How many recent runs to keep (default 200). */
        public Builder historySize(int value) {
            this.historySize = value;
            return this;
        }

        public Builder listener(RunListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Runs as one of several instances of which exactly one acts (the agent joins the election's group after
         * its start-up check, guards every mutation with it, and closes it, leaving the group, on close).
         * Without this the agent acts alone, as a single instance.
         */
        public Builder coordination(ActiveInstanceElection election) {
            this.coordination = Objects.requireNonNull(election, "election");
            return this;
        }

        public PacerAgent build() {
            return new PacerAgent(this);
        }
    }
}
