package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.config.SecretRedactor;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns one of Kafka's authorization errors, anywhere in a cause chain, into a {@link MissingPermissionException}
 * that names the ACLs the agent needs on the refused resource and how to grant them.
 *
 * <p>Why: Kafka's errors say which resource was refused ("Not authorized to access topics: [x]", "Cluster
 * authorization failed") but not which operation, nor what to do about it. Every entry of {@link AgentPermissions}
 * on that resource is named, so the operator can compare with the ACLs granted. The start-up
 * {@link PermissionCheck} is more precise (it knows the operation); this covers what can only fail later, e.g. a
 * permission revoked while the agent runs.
 */
public final class AccessDenied {

    private AccessDenied() {}

    /** The explanation of the first authorization error in the chain, or empty when there is none. */
    public static Optional<MissingPermissionException> explain(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof MissingPermissionException m) {
                return Optional.of(m);
            }
            List<RequiredPermission> needed = needed(t);
            if (!needed.isEmpty()) {
                return Optional.of(new MissingPermissionException(
                        needed, SecretRedactor.none().describe(t)));
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Optional.empty();
    }

    private static List<RequiredPermission> needed(Throwable t) {
        if (t instanceof ClusterAuthorizationException) {
            return AgentPermissions.covering(ResourceType.CLUSTER, RequiredPermission.CLUSTER_NAME);
        }
        if (t instanceof TopicAuthorizationException e) {
            Set<RequiredPermission> needed = new LinkedHashSet<>();
            Set<String> topics = e.unauthorizedTopics();
            if (topics == null || topics.isEmpty()) {
                needed.addAll(AgentPermissions.covering(ResourceType.TOPIC, ""));
            } else {
                topics.forEach(topic -> needed.addAll(AgentPermissions.covering(ResourceType.TOPIC, topic)));
            }
            return List.copyOf(needed);
        }
        if (t instanceof GroupAuthorizationException e) {
            return AgentPermissions.covering(
                    ResourceType.GROUP, e.groupId() != null ? e.groupId() : AgentPermissions.GROUP);
        }
        if (t instanceof TransactionalIdAuthorizationException) {
            return AgentPermissions.REQUIRED.stream()
                    .filter(p -> p.resourceType() == ResourceType.TRANSACTIONAL_ID)
                    .toList();
        }
        return List.of();
    }
}
