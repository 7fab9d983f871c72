package io.leaderpacer.agent;

import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.coordination.ActiveRole;
import io.leaderpacer.agent.core.ConfigSource;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.core.ReplicaOrderStep;
import io.leaderpacer.agent.core.RunListener;
import io.leaderpacer.agent.pacing.Canary;
import io.leaderpacer.agent.pacing.LedgerStore;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The settings of a {@link PacerAgent}, set through its {@link PacerAgent.Builder} (from {@link PacerAgent#builder});
 * only the Admin client is required.
 *
 * <p>Why: an agent has one required part (the Admin client) and many optional ones whose defaults suit a single
 * agent against one cluster; the CLI, the demo and the tests each set only what they need. The settings live here,
 * apart from the agent's lifecycle; {@code PacerAgent.Builder} is their only subclass (the constructor is
 * package-private), so every setter returns the builder and chains end in {@code build()}.
 *
 * @param <B> the builder type each setter returns
 */
public abstract class AgentSettings<B extends AgentSettings<B>> {
    /** The caller's Admin client: every read and election goes through it; closed by the caller, not the agent. */
    final Admin admin;
    /** The base policy, asked on every run. */
    Callable<PacerConfig> basePolicy = PacerConfig::defaults;
    /** Dynamic overrides applied on top of the base policy. */
    ConfigSource configSource = ConfigSource.NONE;
    /** The KIP-491 order applied before each decision. */
    ReplicaOrderStep orderStep = ReplicaOrderStep.IDENTITY;
    /**
     * The agent's one source of time, as Kafka's controller injects {@code Time}: wall-clock milliseconds for run
     * records, the engine's and pacing's time, monotonic nanoseconds for when a run is due and how long it took.
     */
    Time time = Time.SYSTEM;
    /** The caller's scheduler for runs; null: the agent makes (and owns) a daemon thread. */
    ScheduledExecutorService scheduler;
    /** Bound on each Admin request. */
    Duration requestTimeout = Duration.ofSeconds(30);
    /** Bound on each start-up attempt's first contact: short, so that a wrong address shows within seconds. */
    Duration contactTimeout = StartupCheck.DEFAULT_CONTACT_TIMEOUT;
    /** Topics per describe request when reading the cluster. */
    int describeBatchTopics = 200;
    /** Most partitions per electLeaders request. */
    int electionBatchSize = 1000;
    /** Run even though the brokers rebalance leaders themselves (for tests and deliberate operators). */
    boolean allowAutoRebalance;
    /** Delays between start-up attempts (and, coordinated, attempts to join the group). */
    StartupBackoff backoff = StartupBackoff.DEFAULT;
    /** Scrubs secrets from every message. */
    SecretRedactor redactor = SecretRedactor.none();
    /** How the cluster is named in messages. */
    String clusterLabel = "the cluster";
    /** The client properties of the file (store locations, security protocol), to explain TLS failures. */
    Map<String, String> clientProperties = Map.of();
    /** How many recent runs the history keeps. */
    int historySize = 200;
    /** Told about each run from the first one on. */
    final List<RunListener> listeners = new ArrayList<>();
    /** Several instances, one active; null for a single agent. */
    ActiveRole coordination;
    /** Where catch-up pacing records the throttle values it changed (default: memory; the state topic in production). */
    LedgerStore ledgerStore = LedgerStore.inMemory();
    /** Per broker, the canary's P99 over its steady P99 where it is an in-sync follower (default: none). */
    IntFunction<OptionalDouble> canary = broker -> OptionalDouble.empty();
    /** Client settings for the adaptive pacing mode's canary producer; null: no canary. */
    Map<String, Object> canaryClient;
    /** The canary's topic. */
    String canaryTopic = Canary.DEFAULT_TOPIC;
    /** Told about each catch-up pacing look. */
    final List<Consumer<PacingReport>> pacingListeners = new ArrayList<>();

    AgentSettings(Admin admin) {
        this.admin = Objects.requireNonNull(admin, "admin");
    }

    /** This builder, as the type each setter returns. */
    abstract B self();

    /**
     * Takes the settings of a properties file: its policy as the (fixed) base, its time-out, batch size,
     * secrets and bootstrap servers. Use {@link #basePolicy(Callable)} afterwards to re-read the file each run.
     */
    public B properties(AgentProperties properties) {
        basePolicy(properties.policy());
        requestTimeout(properties.requestTimeout());
        describeBatchTopics(properties.describeBatchTopics());
        redactor(properties.redactor());
        clusterLabel(properties.bootstrapServers());
        this.clientProperties = properties.clientProperties();
        return self();
    }

    /** A fixed base policy (dynamic overrides still apply on top). */
    public B basePolicy(PacerConfig config) {
        Objects.requireNonNull(config, "config");
        this.basePolicy = () -> config;
        return self();
    }

    /** The base policy, asked on every run (e.g. re-reading the properties file); errors keep the previous one. */
    public B basePolicy(Callable<PacerConfig> source) {
        this.basePolicy = Objects.requireNonNull(source, "source");
        return self();
    }

    public B configSource(ConfigSource source) {
        this.configSource = Objects.requireNonNull(source, "source");
        return self();
    }

    public B replicaOrderStep(ReplicaOrderStep step) {
        this.orderStep = Objects.requireNonNull(step, "step");
        return self();
    }

    /** The agent's time (default: the system's); a test advances a manual one instead of sleeping. */
    public B time(Time value) {
        this.time = Objects.requireNonNull(value, "time");
        return self();
    }

    /** The scheduler for runs (owned by the caller); default: a daemon thread of the agent's own. */
    public B scheduler(ScheduledExecutorService value) {
        this.scheduler = Objects.requireNonNull(value, "scheduler");
        return self();
    }

    public B requestTimeout(Duration value) {
        this.requestTimeout = Objects.requireNonNull(value, "requestTimeout");
        return self();
    }

    public B describeBatchTopics(int value) {
        this.describeBatchTopics = value;
        return self();
    }

    /** Most partitions per electLeaders request (default 1000). */
    public B electionBatchSize(int value) {
        this.electionBatchSize = value;
        return self();
    }

    public B allowAutoRebalance(boolean value) {
        this.allowAutoRebalance = value;
        return self();
    }

    /** How long each start-up attempt waits for the cluster's first answer (default 5 s, at most the request time-out). */
    public B contactTimeout(Duration value) {
        this.contactTimeout = Objects.requireNonNull(value, "contactTimeout");
        return self();
    }

    public B startupBackoff(StartupBackoff value) {
        this.backoff = Objects.requireNonNull(value, "backoff");
        return self();
    }

    public B redactor(SecretRedactor value) {
        this.redactor = Objects.requireNonNull(value, "redactor");
        return self();
    }

    /** How the cluster is named in log lines (its bootstrap servers). */
    public B clusterLabel(String value) {
        this.clusterLabel = Objects.requireNonNull(value, "clusterLabel");
        return self();
    }

    /** How many recent runs to keep (default 200). */
    public B historySize(int value) {
        this.historySize = value;
        return self();
    }

    public B listener(RunListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return self();
    }

    /**
     * Where catch-up pacing records, before it changes a throttle config, the value it found: the agent's state topic
     * in production, so that the next active instance restores it after a crash (default: memory).
     */
    public B ledgerStore(LedgerStore value) {
        this.ledgerStore = Objects.requireNonNull(value, "ledgerStore");
        return self();
    }

    /** The adaptive pacing mode's health signal, per broker (default: none: adaptive holds its rate). */
    public B canary(IntFunction<OptionalDouble> value) {
        this.canary = Objects.requireNonNull(value, "canary");
        return self();
    }

    /**
     * The client settings (bootstrap servers, security) of the adaptive pacing mode's canary producer, and its topic;
     * without them the adaptive mode has no canary and holds its rate.
     */
    public B canaryClient(Map<String, ?> clientProperties, String topic) {
        this.canaryClient = Map.copyOf(Objects.requireNonNull(clientProperties, "clientProperties"));
        this.canaryTopic = Objects.requireNonNull(topic, "topic");
        return self();
    }

    /** Told about each catch-up pacing look (after it was applied). */
    public B pacingListener(Consumer<PacingReport> listener) {
        pacingListeners.add(Objects.requireNonNull(listener, "listener"));
        return self();
    }

    /**
     * Runs as one of several instances of which exactly one acts (the agent joins the role's group after
     * its start-up check, guards every mutation with it, and closes it, leaving the group, on close).
     * Without this the agent acts alone, as a single instance.
     */
    public B coordination(ActiveRole role) {
        this.coordination = Objects.requireNonNull(role, "role");
        return self();
    }
}
