package io.leaderpacer.agent.kafka;

import org.apache.kafka.common.errors.AuthorizationException;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The agent's principal lacks ACLs it needs; the message names each one (operation, resource type, name), what
 * the agent needs it for, and the {@code kafka-acls.sh} command that grants it.
 *
 * <p>Why a Kafka {@link AuthorizationException}: everything that already treats Kafka's authorization errors as
 * final (the start-up check refuses to run, a run fails without retrying sooner) treats this one the same way, and
 * Kafka's own exception types name only the resource, never the operation that was refused.
 */
public final class MissingPermissionException extends AuthorizationException {

    private static final long serialVersionUID = 1L;

    /** Stands for the agent's principal in the commands (the agent does not know how its user is named). */
    public static final String PRINCIPAL_PLACEHOLDER = "User:<agent-user>";

    /** The entries found missing (or, when Kafka refused a call, the entries that cover the refused resource). */
    private final transient List<RequiredPermission> missing;

    public MissingPermissionException(List<RequiredPermission> missing, String kafkaMessage) {
        super(message(missing, kafkaMessage));
        this.missing = List.copyOf(missing);
    }

    public List<RequiredPermission> missing() {
        return missing;
    }

    private static String message(List<RequiredPermission> missing, String kafkaMessage) {
        String header = kafkaMessage == null
                ? "the agent's principal is missing " + (missing.size() == 1 ? "an ACL" : missing.size() + " ACLs")
                : "not authorized (" + kafkaMessage + "); the agent's principal needs";
        return header + ":\n"
                + missing.stream()
                        .map(p -> "  - " + p.describe() + " (" + p.usedFor() + "); grant it with: "
                                + p.grantCommand(PRINCIPAL_PLACEHOLDER))
                        .collect(Collectors.joining("\n"))
                + "\nSee docs/AGENT.md, \"Permissions (ACLs)\", for the full list.";
    }
}
