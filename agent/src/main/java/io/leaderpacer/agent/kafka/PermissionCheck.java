package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.core.TimeoutMs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.resource.ResourceType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Checks, before the first run, that the agent's principal holds every ACL of {@link AgentPermissions}, and names
 * each one that is missing.
 *
 * <p>Why at start-up: without it a missing ACL shows up late and vaguely: no topic DESCRIBE makes the agent see an
 * empty cluster and do nothing, no ALTER fails only at the first election, no WRITE only at the first
 * deprioritization. Kafka reports the operations a principal may perform on the cluster and on existing topics
 * ({@code includeAuthorizedOperations}, implied operations included); the rest is probed without side effects: a
 * describe of a topic that does not exist is refused only without DESCRIBE on {@code *}, a validate-only creation
 * only without CREATE, a describe of the group or of the transactional id only without READ or WRITE (which
 * imply DESCRIBE). A cluster without an authorizer reports every operation as allowed.
 */
public final class PermissionCheck {

    /** A topic name no one creates, outside the agent's prefix: describing it is refused only without DESCRIBE on {@code *}. */
    static final String PROBE_TOPIC = "leader-pacer-permission-probe";

    private final Admin admin;
    private final Duration timeout;
    /** The agent's own topics and the operations it performs on each. */
    private final Map<String, Set<AclOperation>> ownTopics;
    /** The coordination group, when instances coordinate; empty for a single agent. */
    private final Optional<String> group;

    /**
     * @param ownTopics the agent's topics and what it does on each (CREATE is checked only while the topic is missing)
     * @param group     the coordination group, if instances coordinate (its transactional id follows from it)
     */
    public PermissionCheck(
            Admin admin, Duration timeout, Map<String, Set<AclOperation>> ownTopics, Optional<String> group) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.ownTopics = new LinkedHashMap<>(ownTopics);
        this.group = Objects.requireNonNull(group, "group");
    }

    /**
     * The check of {@code pacer run}: the dynamic config topic (read), the state topic, and the coordination group
     * and transactional id when instances coordinate through {@code group}.
     */
    public static PermissionCheck forAgent(Admin admin, Duration timeout, Optional<String> group) {
        Map<String, Set<AclOperation>> own = new LinkedHashMap<>();
        own.put("_leader-pacer-config", Set.of(AclOperation.READ));
        own.put(
                "_leader-pacer-state",
                Set.of(AclOperation.CREATE, AclOperation.DESCRIBE_CONFIGS, AclOperation.READ, AclOperation.WRITE));
        return new PermissionCheck(admin, timeout, own, group);
    }

    /**
     * Runs the check.
     *
     * @throws MissingPermissionException naming every missing ACL
     * @throws ExecutionException         when Kafka failed a call for another reason (e.g. authentication)
     * @throws TimeoutException           when the cluster did not answer in time
     */
    public void check() throws InterruptedException, ExecutionException, TimeoutException {
        List<RequiredPermission> missing = new ArrayList<>();
        checkCluster(missing);
        checkAllTopicsDescribe(missing);
        checkOwnTopics(missing);
        if (group.isPresent()) {
            List<RequiredPermission> standbys = AgentPermissions.coordination(group.get());
            RequiredPermission groupRead = standbys.get(0);
            RequiredPermission transactionalWrite = standbys.get(1);
            missing.addAll(probe(
                    () -> admin.describeConsumerGroups(
                                    List.of(groupRead.resourceName()),
                                    new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true))
                            .all(),
                    GroupAuthorizationException.class,
                    groupRead));
            missing.addAll(probe(
                    () -> admin.describeTransactions(List.of(transactionalWrite.resourceName()))
                            .all(),
                    TransactionalIdAuthorizationException.class,
                    transactionalWrite));
        }
        if (!missing.isEmpty()) {
            throw new MissingPermissionException(missing.stream().distinct().toList(), null);
        }
    }

    /**
     * What catch-up pacing needs beyond the agent's own permissions ({@link AgentPermissions#CATCH_UP_PACING}), and
     * which of it is missing: the cluster's operations as Kafka lists them, and a validate-only topic config change
     * (refused without ALTER_CONFIGS before the topic is even looked up; it changes nothing either way).
     */
    public List<RequiredPermission> missingForPacing()
            throws InterruptedException, ExecutionException, TimeoutException {
        List<RequiredPermission> missing = new ArrayList<>();
        RequiredPermission clusterConfigs = AgentPermissions.CATCH_UP_PACING.get(0);
        RequiredPermission topicConfigs = AgentPermissions.CATCH_UP_PACING.get(1);
        Set<AclOperation> allowed = admin.describeCluster(new DescribeClusterOptions()
                        .includeAuthorizedOperations(true)
                        .timeoutMs(timeoutMs()))
                .authorizedOperations()
                .get(waitMs(), TimeUnit.MILLISECONDS);
        if (allowed != null && !allowed.contains(AclOperation.ALTER_CONFIGS)) {
            missing.add(clusterConfigs);
        }
        ConfigResource probe = new ConfigResource(ConfigResource.Type.TOPIC, PROBE_TOPIC);
        missing.addAll(probe(
                () -> admin.incrementalAlterConfigs(
                                Map.of(
                                        probe,
                                        List.of(new AlterConfigOp(
                                                new ConfigEntry("follower.replication.throttled.replicas", ""),
                                                AlterConfigOp.OpType.DELETE))),
                                new AlterConfigsOptions().validateOnly(true).timeoutMs(timeoutMs()))
                        .all(),
                TopicAuthorizationException.class,
                topicConfigs));
        return missing;
    }

    /**
     * Kafka lists the cluster operations only to a principal that may DESCRIBE the cluster (an empty list
     * otherwise). DESCRIBE is implied by ALTER, so its absence means ALTER is missing; DESCRIBE_CONFIGS is then
     * probed by reading one broker's configuration.
     */
    private void checkCluster(List<RequiredPermission> missing)
            throws InterruptedException, ExecutionException, TimeoutException {
        DescribeClusterResult cluster = admin.describeCluster(
                new DescribeClusterOptions().includeAuthorizedOperations(true).timeoutMs(timeoutMs()));
        Set<AclOperation> allowed = cluster.authorizedOperations().get(waitMs(), TimeUnit.MILLISECONDS);
        if (allowed == null) {
            return; // A broker too old to say: the first run will tell.
        }
        List<RequiredPermission> needed =
                AgentPermissions.covering(ResourceType.CLUSTER, RequiredPermission.CLUSTER_NAME);
        if (allowed.contains(AclOperation.DESCRIBE)) {
            needed.stream().filter(p -> !allowed.contains(p.operation())).forEach(missing::add);
            return;
        }
        missing.add(entry(AclOperation.ALTER, ResourceType.CLUSTER, RequiredPermission.CLUSTER_NAME));
        Collection<Node> brokers = cluster.nodes().get(waitMs(), TimeUnit.MILLISECONDS);
        if (!brokers.isEmpty()) {
            ConfigResource broker = new ConfigResource(
                    ConfigResource.Type.BROKER,
                    Integer.toString(brokers.iterator().next().id()));
            missing.addAll(probe(
                    () -> admin.describeConfigs(List.of(broker), new DescribeConfigsOptions().timeoutMs(timeoutMs()))
                            .all(),
                    ClusterAuthorizationException.class,
                    entry(AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER, RequiredPermission.CLUSTER_NAME)));
        }
    }

    private void checkAllTopicsDescribe(List<RequiredPermission> missing)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            admin.describeTopics(List.of(PROBE_TOPIC), new DescribeTopicsOptions().timeoutMs(timeoutMs()))
                    .allTopicNames()
                    .get(waitMs(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException) {
                missing.addAll(AgentPermissions.covering(ResourceType.TOPIC, PROBE_TOPIC));
            } else if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
    }

    private void checkOwnTopics(List<RequiredPermission> missing)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(
                        ownTopics.keySet(),
                        new DescribeTopicsOptions()
                                .includeAuthorizedOperations(true)
                                .timeoutMs(timeoutMs()))
                .topicNameValues();
        for (Map.Entry<String, Set<AclOperation>> own : ownTopics.entrySet()) {
            String topic = own.getKey();
            Set<AclOperation> allowed;
            try {
                allowed = described
                        .get(topic)
                        .get(waitMs(), TimeUnit.MILLISECONDS)
                        .authorizedOperations();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    if (own.getValue().contains(AclOperation.CREATE) && !mayCreate(topic)) {
                        missing.add(entry(AclOperation.CREATE, ResourceType.TOPIC, topic));
                    }
                    continue;
                }
                if (e.getCause() instanceof TopicAuthorizationException) {
                    missing.addAll(AgentPermissions.covering(ResourceType.TOPIC, topic).stream()
                            .filter(p -> p.operation() == AclOperation.DESCRIBE)
                            .toList());
                    continue;
                }
                throw e;
            }
            if (allowed == null) {
                continue;
            }
            for (AclOperation op : own.getValue()) {
                if (op != AclOperation.CREATE && !allowed.contains(op)) {
                    missing.add(entry(op, ResourceType.TOPIC, topic));
                }
            }
        }
    }

    /** A validate-only creation: refused without CREATE, creates nothing either way. */
    private boolean mayCreate(String topic) throws InterruptedException, ExecutionException, TimeoutException {
        try {
            admin.createTopics(
                            List.of(new NewTopic(topic, 1, (short) 1)),
                            new CreateTopicsOptions().validateOnly(true).timeoutMs(timeoutMs()))
                    .all()
                    .get(waitMs(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException) {
                return false;
            }
            return true; // Any other objection (a creation policy, say) is the state topic's safety check's to report.
        }
    }

    private interface Call {
        KafkaFuture<?> start();
    }

    /** {@code entry} when the call is refused with {@code refusal}; nothing when it succeeds or fails otherwise. */
    private List<RequiredPermission> probe(Call call, Class<? extends Exception> refusal, RequiredPermission entry) {
        try {
            call.start().get(waitMs(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (refusal.isInstance(e.getCause())) {
                return List.of(entry);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException e) {
            // Not a refusal: the first run will report an unreachable coordinator.
        }
        return List.of();
    }

    /** The documented entry for this operation on this resource. */
    private static RequiredPermission entry(AclOperation op, ResourceType type, String name) {
        return AgentPermissions.covering(type, name).stream()
                .filter(p -> p.operation() == op)
                .findFirst()
                .orElseThrow(() ->
                        new IllegalStateException(op + " on " + type + " " + name + " is not in the documented list"));
    }

    private int timeoutMs() {
        return TimeoutMs.of(timeout);
    }

    private long waitMs() {
        return timeout.toMillis() + 5_000;
    }
}
