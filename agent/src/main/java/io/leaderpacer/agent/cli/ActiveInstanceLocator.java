package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.coordination.InstanceIds;
import io.leaderpacer.agent.core.TimeoutMs;
import io.leaderpacer.agent.reorder.OrderStateStore;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Finds the active instance of a group of agents through the cluster: the member of {@code pacer.group.id} that is
 * assigned the state topic's partition, and the host it connects from.
 *
 * <p>Why: with several instances an operator knows the cluster, not which host is active right now. Kafka's group
 * coordinator knows: the active instance is, by definition, the member holding the state partition.
 */
final class ActiveInstanceLocator {

    /** The active instance: its id and the host its connection comes from. */
    record Active(String instanceId, String host) {}

    private ActiveInstanceLocator() {}

    /** The active member of the group, empty when no instance holds the role (none running, or a takeover). */
    static Optional<Active> find(Admin admin, String group, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        TopicPartition state = new TopicPartition(OrderStateStore.DEFAULT_TOPIC, 0);
        int ms = TimeoutMs.of(timeout);
        ConsumerGroupDescription d = admin.describeConsumerGroups(
                        List.of(group), new DescribeConsumerGroupsOptions().timeoutMs(ms))
                .describedGroups()
                .get(group)
                .get(ms + 1_000L, TimeUnit.MILLISECONDS);
        for (MemberDescription m : d.members()) {
            if (m.assignment().topicPartitions().contains(state)) {
                String id = InstanceIds.instanceOf(m.clientId());
                String host = m.host().startsWith("/") ? m.host().substring(1) : m.host();
                return Optional.of(new Active(id, host));
            }
        }
        return Optional.empty();
    }
}
