package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.coordination.ActiveRole;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.agent.reorder.DeprioritizedOrderStep;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One coordinated agent instance of the chaos test, wired as {@code pacer run} wires it (see {@code AgentAssembly}):
 * its own Admin client, its {@link ActiveRole}, its {@link OrderStateStore} writing through the
 * election's fenced writer and read again on each takeover, its {@link DeprioritizedOrderStep} behind the
 * election's action guard; with the chaos test's {@link RecordingOrderStep} and {@link RunInvariantMonitor} on it.
 *
 * <p>Why a class: the fail-over chaos test starts instances as it goes (a fresh standby after each stop or crash)
 * and ends them in two ways, which differ in exactly one thing, whether the group hears that the member left:
 * <ul>
 *   <li>{@link #stop()} closes the agent, as {@code pacer run} does on SIGTERM: its run in progress ends, then it
 *       leaves the group and a standby is assigned the role at once;</li>
 *   <li>{@link #crash()} ends the run thread (the scheduler is shut down, the run in progress interrupted) and
 *       closes the group consumer with {@link CloseOptions.GroupMembershipOperation#REMAIN_IN_GROUP}: no
 *       LeaveGroup request is sent and no heartbeat either, so the group coordinator removes the member only when
 *       its session time-out expires, as after a {@code kill -9}. The classic consumer honours it (Kafka 4.3.1:
 *       {@code AbstractCoordinator} sends the LeaveGroup only for {@code LEAVE_GROUP}, or {@code DEFAULT} with a
 *       dynamic member). The consumer is the election's own and private; it is reached by reflection, the one
 *       test-only access the crash needs, so the coordination package needs no hook for it.</li>
 * </ul>
 */
final class CoordinatedInstance implements AutoCloseable {

    /**
     * What every instance of one test shares.
     *
     * @param bootstrapServers the cluster
     * @param group            the agents' consumer group
     * @param stateTopic       the single-partition state topic (the role, and the KIP-491 records)
     * @param configTopic      the dynamic configuration topic
     * @param policy           the base policy
     * @param sessionTimeout   the group session time-out
     * @param kafkaTimeout     bound on each Kafka call
     * @param maxDelayMs       longest delay the agent's scheduler keeps
     * @param checks           the per-run invariants
     * @param failover         the invariants across instances
     */
    record Wiring(
            String bootstrapServers,
            String group,
            String stateTopic,
            String configTopic,
            PacerConfig policy,
            Duration sessionTimeout,
            Duration kafkaTimeout,
            long maxDelayMs,
            InvariantChecks checks,
            FailoverChecks failover) {}

    /** How long a crash or a stop waits for the run thread to end. */
    private static final long STOP_WAIT_SECONDS = 15;

    private final String name;
    /** The instance's own Admin client, as each {@code pacer run} process has. */
    private final Admin admin;

    private final TopicConfigSource config;
    private final ActiveRole election;
    /** The KIP-491 state, written through the election's fenced writer. */
    private final OrderStateStore store;
    /** The monitor's own reader of the state topic. */
    private final OrderStateStore checker;

    private final RunInvariantMonitor monitor;
    /** The run thread; shut down by a crash without the agent being told. */
    private final BoundedDelayScheduler scheduler;

    private final PacerAgent agent;
    /** Whether the instance was stopped or crashed (closing again does nothing). */
    private boolean ended;

    CoordinatedInstance(String name, Wiring w) throws Exception {
        this.name = Objects.requireNonNull(name, "name");
        Map<String, Object> client = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, w.bootstrapServers());
        this.admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                w.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) w.kafkaTimeout().toMillis(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) w.kafkaTimeout().toMillis() * 2));
        this.config = new TopicConfigSource(new CompactedTopic(admin, client, w.configTopic(), w.kafkaTimeout()));
        AtomicReference<OrderStateStore> self = new AtomicReference<>();
        this.election = ActiveRole.builder(admin, client)
                .groupId(w.group())
                .topic(w.stateTopic())
                .instanceId(name)
                .sessionTimeout(w.sessionTimeout())
                .timeout(w.kafkaTimeout())
                .onTakeover(() -> self.get().reset())
                .build();
        this.store = new OrderStateStore(
                new CompactedTopic(admin, client, w.stateTopic(), w.kafkaTimeout(), election.stateWriter()));
        self.set(store);
        this.checker = new OrderStateStore(new CompactedTopic(admin, client, w.stateTopic(), w.kafkaTimeout()));
        DeprioritizedOrderStep reorder = DeprioritizedOrderStep.builder(admin, store)
                .actionGuard(election)
                .timeout(w.kafkaTimeout())
                .batchSize(16)
                .build();
        RecordingOrderStep recorder = new RecordingOrderStep(reorder);
        this.monitor = new RunInvariantMonitor(w.checks(), recorder, reorder, checker, name, Optional.of(w.failover()));
        this.scheduler = new BoundedDelayScheduler(w.maxDelayMs(), "chaos-" + name);
        this.agent = PacerAgent.builder(admin)
                .basePolicy(w.policy())
                .configSource(config)
                .replicaOrderStep(recorder)
                .listener(monitor)
                .scheduler(scheduler)
                .requestTimeout(w.kafkaTimeout())
                .clusterLabel(w.bootstrapServers())
                .coordination(election)
                .build();
    }

    String name() {
        return name;
    }

    void start() {
        agent.start();
    }

    /** Whether this instance holds the active role and acts on it. */
    boolean isActive() {
        return !ended && agent.state() == AgentState.ACTIVE;
    }

    /** Whether this instance is a standby that knows who is active. */
    boolean isStandbyOf(String active) {
        return !ended
                && agent.state() == AgentState.STANDBY
                && agent.coordination()
                        .map(c -> active.equals(c.activeInstance()))
                        .orElse(false);
    }

    /** How many times this instance became active. */
    int takeovers() {
        return election.takeovers();
    }

    RunInvariantMonitor monitor() {
        return monitor;
    }

    /** A graceful stop: the run in progress ends, the instance leaves the group, its clients are closed. */
    void stop() {
        if (ended) {
            return;
        }
        ended = true;
        agent.close();
        stopRunThread();
        closeClients(Duration.ofSeconds(5));
    }

    /**
     * A crash: the run thread ends and the group consumer closes without leaving the group, so that the group
     * waits for the session time-out; then everything else is released (nothing of it reaches the group).
     */
    void crash() {
        if (ended) {
            return;
        }
        ended = true;
        stopRunThread();
        groupConsumer()
                .close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP)
                        .withTimeout(Duration.ZERO));
        // The consumer is closed already, so closing the agent (and with it the election) sends no LeaveGroup.
        agent.close();
        closeClients(Duration.ZERO);
    }

    @Override
    public void close() {
        stop();
    }

    private void stopRunThread() {
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError(
                        "the run thread of agent instance " + name + " did not end within " + STOP_WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping agent instance " + name, e);
        }
    }

    private void closeClients(Duration adminTimeout) {
        store.close();
        checker.close();
        config.close();
        admin.close(adminTimeout);
    }

    /** The election's group consumer: {@code ActiveRole.membership} then {@code GroupMembership.consumer}. */
    private Consumer<?, ?> groupConsumer() {
        Object membership = field(election, "membership");
        return (Consumer<?, ?>) field(membership, "consumer");
    }

    private static Object field(Object owner, String name) {
        try {
            Field f = owner.getClass().getDeclaredField(name);
            f.setAccessible(true);
            return f.get(owner);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new AssertionError(
                    "the crash of an agent instance needs the field "
                            + owner.getClass().getSimpleName() + "." + name
                            + " (the group consumer it closes without leaving the group); was it renamed? " + e,
                    e);
        }
    }
}
