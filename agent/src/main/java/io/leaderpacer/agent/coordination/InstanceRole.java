package io.leaderpacer.agent.coordination;

/** Whether this instance acts: exactly one instance of a group is {@link #ACTIVE} at a time. */
public enum InstanceRole {
    /** Takes part in the group and waits; sends nothing, writes nothing. */
    STANDBY,
    /** Owns the group's partition, has fenced its predecessor and runs. */
    ACTIVE
}
