package io.leaderpacer.agent.kafka;

import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

import java.util.List;
import java.util.stream.Stream;

/**
 * Exactly the ACLs the agent's principal needs: the list in the docs ("Permissions (ACLs)"), as data.
 *
 * <p>Why exactly these: least privilege. Each entry was tested by removing it alone on a cluster with ACLs
 * enforced; the agent then refuses to run and names it. Operations Kafka implies are left out because granting
 * them changes nothing: ALTER implies DESCRIBE on the cluster (describeCluster, listPartitionReassignments);
 * READ or WRITE imply DESCRIBE on the agent's own topics; READ implies DESCRIBE on the group; WRITE implies
 * DESCRIBE on the transactional id; and WRITE on any topic implies IDEMPOTENT_WRITE for the idempotent producer
 * (Kafka 2.8 and later).
 */
public final class AgentPermissions {

    /** Prefix of the agent's own topics ({@code _leader-pacer-config}, {@code _leader-pacer-state}). */
    public static final String OWN_TOPIC_PREFIX = "_leader-pacer";
    /** The coordination group id unless configured ({@code pacer.group.id}). */
    public static final String GROUP = "leader-pacer";
    /** What the coordinated instances' transactional id adds to their group id ({@code leader-pacer-state}). */
    public static final String TRANSACTIONAL_ID_SUFFIX = "-state";

    /** On the cluster and the topics: needed by every agent. */
    public static final List<RequiredPermission> CLUSTER_AND_TOPICS = List.of(
            new RequiredPermission(
                    AclOperation.ALTER,
                    ResourceType.CLUSTER,
                    RequiredPermission.CLUSTER_NAME,
                    PatternType.LITERAL,
                    "electLeaders and alterPartitionReassignments; implies DESCRIBE for"
                            + " describeCluster and listPartitionReassignments"),
            new RequiredPermission(
                    AclOperation.DESCRIBE_CONFIGS,
                    ResourceType.CLUSTER,
                    RequiredPermission.CLUSTER_NAME,
                    PatternType.LITERAL,
                    "reading the brokers' auto.leader.rebalance.enable at start-up"),
            new RequiredPermission(
                    AclOperation.DESCRIBE,
                    ResourceType.TOPIC,
                    "*",
                    PatternType.LITERAL,
                    "listing and describing every topic's partitions"),
            new RequiredPermission(
                    AclOperation.CREATE,
                    ResourceType.TOPIC,
                    OWN_TOPIC_PREFIX,
                    PatternType.PREFIXED,
                    "creating the state topic on first use; not needed once it exists"),
            new RequiredPermission(
                    AclOperation.DESCRIBE_CONFIGS,
                    ResourceType.TOPIC,
                    OWN_TOPIC_PREFIX,
                    PatternType.PREFIXED,
                    "checking the state topic's settings: compaction, min.insync.replicas"),
            new RequiredPermission(
                    AclOperation.READ,
                    ResourceType.TOPIC,
                    OWN_TOPIC_PREFIX,
                    PatternType.PREFIXED,
                    "reading the dynamic config topic and the state topic"),
            new RequiredPermission(
                    AclOperation.WRITE,
                    ResourceType.TOPIC,
                    OWN_TOPIC_PREFIX,
                    PatternType.PREFIXED,
                    "writing the original replica orders to the state topic"));

    /**
     * What catch-up pacing adds, when it is on: it sets follower replication rates (broker configs) and replica-list
     * entries (topic configs). ALTER_CONFIGS implies DESCRIBE_CONFIGS; the log-directory sizes it reads need DESCRIBE
     * on the cluster, implied by ALTER; its canary's topic is one of the agent's own.
     */
    public static final List<RequiredPermission> CATCH_UP_PACING = List.of(
            new RequiredPermission(
                    AclOperation.ALTER_CONFIGS,
                    ResourceType.CLUSTER,
                    RequiredPermission.CLUSTER_NAME,
                    PatternType.LITERAL,
                    "catch-up pacing: the follower replication rate, as the cluster default while"
                            + " a paced broker is down and on that broker once it is up"),
            new RequiredPermission(
                    AclOperation.ALTER_CONFIGS,
                    ResourceType.TOPIC,
                    "*",
                    PatternType.LITERAL,
                    "catch-up pacing: the follower.replication.throttled.replicas entries of a recovering broker's"
                            + " out-of-sync replicas"));

    /** Everything {@code pacer run} needs with the default group. */
    public static final List<RequiredPermission> REQUIRED = required(GROUP);

    private AgentPermissions() {}

    /** Everything {@code pacer run} needs when its instances coordinate through {@code group}. */
    public static List<RequiredPermission> required(String group) {
        return Stream.concat(CLUSTER_AND_TOPICS.stream(), coordination(group).stream())
                .toList();
    }

    /** The entries for instances coordinating through {@code group}: the group and its transactional id. */
    public static List<RequiredPermission> coordination(String group) {
        return List.of(
                new RequiredPermission(
                        AclOperation.READ,
                        ResourceType.GROUP,
                        group,
                        PatternType.LITERAL,
                        "the group membership that picks the active instance, and committing its offset"),
                new RequiredPermission(
                        AclOperation.WRITE,
                        ResourceType.TRANSACTIONAL_ID,
                        group + TRANSACTIONAL_ID_SUFFIX,
                        PatternType.LITERAL,
                        "the transactional producer that fences a deposed instance"));
    }

    /** The entries (default group) on resources of this type that cover this name, e.g. every entry for {@code _leader-pacer-state}. */
    public static List<RequiredPermission> covering(ResourceType type, String name) {
        return REQUIRED.stream().filter(p -> p.covers(type, name)).toList();
    }
}
