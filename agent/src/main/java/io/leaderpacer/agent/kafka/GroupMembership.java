package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.config.ClientSettings;
import io.leaderpacer.agent.core.TimeoutMs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * This instance's membership of the agents' consumer group on the state topic's single partition: whoever is
 * assigned the partition is the active instance.
 *
 * <p>Why these settings: the classic group protocol with an eager assignor revokes the partition from its owner
 * (whose {@code onPartitionsRevoked} runs, on its own thread, in its next {@code poll}) before the group hands it to
 * anyone, so a live owner always stops before a successor starts. The sticky assignor (eager too) gives the
 * partition back to its previous owner when a standby joins, so starting a standby does not move the active role.
 * The partition is paused as soon as it is assigned: the group never reads records, {@code poll} only takes part
 * in the group. A member that stops heartbeating (crash, pause, partition) is removed after the session time-out
 * and the partition goes to a standby.
 *
 * <p>Not thread-safe: like its consumer, used only from the agent's run thread; {@link #groupMetadata()} is the
 * copy taken after the last poll.
 */
public final class GroupMembership implements ConsumerRebalanceListener, AutoCloseable {

    /** Told, from inside {@code poll}, when this member gains or loses the partition. */
    public interface Listener {
        /** The partition was assigned to this member. */
        void gained();

        /** The partition was taken away: {@code lost} when the member learnt it had already left the group. */
        void given(boolean lost);

        /** A rebalance completed and the partition is someone else's (or no one's). */
        void standby();
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    /** The state topic's partition 0: the active role. */
    private final TopicPartition partition;

    private final Listener listener;
    /** The group's id. */
    private final String groupId;
    /** Bound on a blocking consumer call outside poll. */
    private final Duration timeout;
    /** Whether the partition is assigned to this member now. */
    private boolean owns;
    /** The group generation and member id after the last poll, for the fenced writer. */
    private volatile ConsumerGroupMetadata groupMetadata;

    public GroupMembership(
            Map<String, ?> clientProperties,
            String groupId,
            String topic,
            Duration sessionTimeout,
            String clientId,
            Duration timeout,
            Listener listener) {
        this.partition = new TopicPartition(topic, 0);
        this.groupId = Objects.requireNonNull(groupId, "groupId");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        Map<String, Object> props = ClientSettings.forClient(clientProperties, ConsumerConfig.configNames());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, StickyAssignor.class.getName());
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(1, sessionTimeout.toMillis() / 3));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        props.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TimeoutMs.of(timeout));
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Joins the group (on the next poll). */
    public void join() {
        consumer.subscribe(List.of(partition.topic()), this);
    }

    /** Takes part in the group for up to {@code wait}; rebalance callbacks run inside. */
    public void poll(Duration wait) {
        consumer.poll(wait);
        groupMetadata = consumer.groupMetadata();
    }

    public boolean owns() {
        return owns;
    }

    public TopicPartition partition() {
        return partition;
    }

    public ConsumerGroupMetadata groupMetadata() {
        ConsumerGroupMetadata g = groupMetadata;
        return g != null ? g : consumer.groupMetadata();
    }

    /** The metadata of the group's committed offset of the partition (the last active instance's summary). */
    public Optional<String> committedMetadata() {
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.of(partition), timeout);
        OffsetAndMetadata o = committed.get(partition);
        return o == null ? Optional.empty() : Optional.ofNullable(o.metadata());
    }

    /** The client id of the member that owns the partition, as the group coordinator describes it; empty if unknown. */
    public Optional<String> owner(Admin admin) {
        try {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(groupId))
                    .describedGroups()
                    .get(groupId)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            for (MemberDescription m : d.members()) {
                if (m.assignment().topicPartitions().contains(partition)) {
                    return Optional.of(m.clientId());
                }
            }
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // Only used to name the active instance in a log line and in /status.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (partitions.contains(partition)) {
            consumer.pause(List.of(partition));
            owns = true;
            listener.gained();
        } else if (!owns) {
            listener.standby();
        }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        if (partitions.contains(partition) && owns) {
            owns = false;
            listener.given(false);
        }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        if (partitions.contains(partition) && owns) {
            owns = false;
            listener.given(true);
        }
    }

    /** Leaves the group, so that a standby takes over at once rather than after the session time-out. */
    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(timeout));
    }
}
