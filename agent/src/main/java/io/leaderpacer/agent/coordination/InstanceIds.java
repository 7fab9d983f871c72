package io.leaderpacer.agent.coordination;

import io.leaderpacer.agent.kafka.AgentPermissions;

import java.net.InetAddress;

/**
 * The names an instance of the agent goes by: its instance id, the client ids of its group member and of its state
 * producer, and the transactional id every instance of its group shares.
 *
 * <p>Why one class: a standby, {@code pacer status} and {@code pacer restore} find the active instance by reading
 * these names back from the group's members, and the ACLs an operator grants name the transactional id; written in
 * one place, the reading cannot drift from the writing.
 */
public final class InstanceIds {

    /** Prefix of an instance's client ids; the rest is its {@code pacer.instance.id}. */
    private static final String CLIENT_ID_PREFIX = "leader-pacer-";

    private InstanceIds() {}

    /** The default instance id: host name and process id, unique per process and meaningful in logs. */
    public static String defaultInstanceId() {
        return host() + "-" + ProcessHandle.current().pid();
    }

    /** This machine's host name, or {@code unknown-host} when it has none it can tell. */
    static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown-host";
        }
    }

    /** The client id of the instance's group member: what the group coordinator lists for it. */
    static String memberClientId(String instanceId) {
        return CLIENT_ID_PREFIX + instanceId;
    }

    /** The client id of the instance's state producer. */
    static String stateClientId(String instanceId) {
        return CLIENT_ID_PREFIX + instanceId + AgentPermissions.TRANSACTIONAL_ID_SUFFIX;
    }

    /** The instance id a group member's client id names; the client id itself if it is not an instance's. */
    public static String instanceOf(String memberClientId) {
        return memberClientId.startsWith(CLIENT_ID_PREFIX)
                ? memberClientId.substring(CLIENT_ID_PREFIX.length())
                : memberClientId;
    }

    /**
     * The transactional id every instance of {@code groupId} shares: whoever initialises it last fences the others
     * (an instance taking over, or {@link StateFence}).
     */
    static String transactionalId(String groupId) {
        return groupId + AgentPermissions.TRANSACTIONAL_ID_SUFFIX;
    }
}
