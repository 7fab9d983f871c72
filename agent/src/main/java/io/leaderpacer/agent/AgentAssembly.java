package io.leaderpacer.agent;

import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.coordination.ActiveRole;
import io.leaderpacer.agent.coordination.InstanceIds;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.agent.pacing.Canary;
import io.leaderpacer.agent.pacing.TopicLedgerStore;
import io.leaderpacer.agent.reorder.DeprioritizedOrderStep;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The production agent and everything it opens, wired from a properties file exactly as {@code pacer run} runs
 * it: the Admin client, the dynamic config topic, the active role with its fenced state writer, the
 * KIP-491 state store and reorder step behind the role's action guard.
 *
 * <p>Why one place: the wiring has a cycle (the state store writes through the role's fenced producer, and each
 * takeover makes the store read its topic again) and an order of closing; tests of security, fail-over and
 * durability must exercise the same wiring the command runs, not a copy of it that can drift.
 */
public final class AgentAssembly implements AutoCloseable {

    /** How long closing waits for the Admin client's in-flight calls. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    /** Everything opened, closed newest first. */
    private final OpenedResources opened = new OpenedResources();

    private final Admin admin;
    private final ActiveRole role;
    private final OrderStateStore orders;
    private final PacerAgent agent;

    private AgentAssembly(AgentProperties props, Callable<PacerConfig> basePolicy, Consumer<PacerAgent.Builder> extra) {
        Admin client = Admin.create(props.adminClientConfig());
        admin = client;
        opened.add(() -> client.close(CLOSE_TIMEOUT));
        try {
            // One time for the role (its lease, the hand-over summary), the agent (runs, pacing) and the deadlines
            // of its own topics.
            Time time = Time.SYSTEM;
            // The agent's own topics are read with the agent's request time-out, so an unreachable cluster fails a
            // run in that time rather than the clients' longer defaults.
            TopicConfigSource overrides = opened.add(new TopicConfigSource(new CompactedTopic(
                    admin,
                    props.clientProperties(),
                    TopicConfigSource.DEFAULT_TOPIC,
                    props.requestTimeout(),
                    null,
                    time)));
            AtomicReference<OrderStateStore> store = new AtomicReference<>();
            role = opened.add(ActiveRole.builder(admin, props.clientProperties())
                    .time(time)
                    .groupId(props.groupId())
                    .sessionTimeout(props.sessionTimeout())
                    .instanceId(props.instanceId().isEmpty() ? InstanceIds.defaultInstanceId() : props.instanceId())
                    .timeout(props.requestTimeout())
                    .onTakeover(() -> store.get().reset())
                    .build());
            orders = opened.add(new OrderStateStore(new CompactedTopic(
                    admin,
                    props.clientProperties(),
                    OrderStateStore.DEFAULT_TOPIC,
                    props.requestTimeout(),
                    role.stateWriter(),
                    time)));
            store.set(orders);
            PacerAgent.Builder builder = PacerAgent.builder(admin)
                    .properties(props)
                    .time(time)
                    .basePolicy(basePolicy)
                    .configSource(overrides)
                    .replicaOrderStep(DeprioritizedOrderStep.builder(admin, orders)
                            .actionGuard(role)
                            .build())
                    .ledgerStore(new TopicLedgerStore(opened.add(new CompactedTopic(
                            admin,
                            props.clientProperties(),
                            OrderStateStore.DEFAULT_TOPIC,
                            props.requestTimeout(),
                            role.stateWriter(),
                            time))))
                    .canaryClient(props.clientProperties(), Canary.DEFAULT_TOPIC)
                    .coordination(role);
            extra.accept(builder);
            agent = opened.add(builder.build());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Opens the clients and builds the agent (not started).
     *
     * @param props      the loaded properties file
     * @param basePolicy asked on every run (e.g. re-reading the file); errors keep the previous policy
     * @param extra      further builder settings (listeners, the auto-rebalance override)
     * @throws org.apache.kafka.common.KafkaException when a Kafka client cannot be created from the properties
     */
    public static AgentAssembly open(
            AgentProperties props, Callable<PacerConfig> basePolicy, Consumer<PacerAgent.Builder> extra) {
        return new AgentAssembly(
                Objects.requireNonNull(props, "props"),
                Objects.requireNonNull(basePolicy, "basePolicy"),
                Objects.requireNonNull(extra, "extra"));
    }

    public PacerAgent agent() {
        return agent;
    }

    /** The agent's Admin client (closed with the assembly). */
    public Admin admin() {
        return admin;
    }

    public ActiveRole role() {
        return role;
    }

    public OrderStateStore orders() {
        return orders;
    }

    /** Closes the agent first, then its store, the role (leaving the group), the config topic and the client. */
    @Override
    public void close() {
        opened.close();
    }
}
