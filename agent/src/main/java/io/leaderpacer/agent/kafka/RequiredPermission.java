package io.leaderpacer.agent.kafka;

import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

import java.util.Locale;
import java.util.Objects;

/**
 * One ACL the agent's principal needs: an operation on a resource (literal name, {@code *}, or a name prefix).
 *
 * <p>Why a value of its own: the same entry is checked at start-up, named in the error when it is missing, turned
 * into the {@code kafka-acls.sh} command that grants it, and granted or revoked one at a time by the tests that
 * prove the documented list is exact.
 *
 * @param operation    the ACL operation (ALTER, DESCRIBE_CONFIGS, ...)
 * @param resourceType CLUSTER, TOPIC, GROUP or TRANSACTIONAL_ID
 * @param resourceName the literal name, {@code *}, or the prefix
 * @param patternType  LITERAL (also for {@code *}) or PREFIXED
 * @param usedFor      what the agent does with it, for the error message and the docs
 */
public record RequiredPermission(
        AclOperation operation,
        ResourceType resourceType,
        String resourceName,
        PatternType patternType,
        String usedFor) {

    /** The name of the one Cluster resource, as Kafka calls it. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    public RequiredPermission {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(resourceType, "resourceType");
        Objects.requireNonNull(resourceName, "resourceName");
        Objects.requireNonNull(patternType, "patternType");
        Objects.requireNonNull(usedFor, "usedFor");
    }

    /** Whether this entry covers a resource of that type and name (e.g. a prefix covers every name starting with it). */
    public boolean covers(ResourceType type, String name) {
        if (type != resourceType) {
            return false;
        }
        if (patternType == PatternType.PREFIXED) {
            return name.startsWith(resourceName);
        }
        return resourceName.equals("*") || resourceName.equals(name);
    }

    /** E.g. {@code ALTER on Cluster 'kafka-cluster'}, {@code WRITE on Topic prefix '_leader-pacer'}. */
    public String describe() {
        return operation + " on " + typeName() + (patternType == PatternType.PREFIXED ? " prefix" : "") + " '"
                + resourceName + "'";
    }

    /** The same as {@link #describe()}: how the entry reads in messages and test names. */
    @Override
    public String toString() {
        return describe();
    }

    /**
     * The {@code kafka-acls.sh} command that grants it to {@code principal} (e.g. {@code User:leader-pacer});
     * connection options are left as placeholders.
     */
    public String grantCommand(String principal) {
        StringBuilder b =
                new StringBuilder("kafka-acls.sh --bootstrap-server <brokers> --command-config <admin.properties>"
                        + " --add --allow-principal " + principal + " --operation " + aclToolOperation());
        switch (resourceType) {
            case CLUSTER -> b.append(" --cluster");
            case TOPIC -> b.append(" --topic ").append(quoted(resourceName));
            case GROUP -> b.append(" --group ").append(quoted(resourceName));
            case TRANSACTIONAL_ID -> b.append(" --transactional-id ").append(quoted(resourceName));
            default -> throw new IllegalStateException("no kafka-acls.sh option for " + resourceType);
        }
        if (patternType == PatternType.PREFIXED) {
            b.append(" --resource-pattern-type prefixed");
        }
        return b.toString();
    }

    /** kafka-acls.sh spells operations in camel case: DESCRIBE_CONFIGS is DescribeConfigs. */
    private String aclToolOperation() {
        StringBuilder b = new StringBuilder();
        for (String part : operation.name().split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }

    private String typeName() {
        return switch (resourceType) {
            case CLUSTER -> "Cluster";
            case TOPIC -> "Topic";
            case GROUP -> "Group";
            case TRANSACTIONAL_ID -> "TransactionalId";
            default -> resourceType.name();
        };
    }

    /** {@code *} must be quoted for the shell. */
    private static String quoted(String name) {
        return name.equals("*") ? "'*'" : name;
    }
}
