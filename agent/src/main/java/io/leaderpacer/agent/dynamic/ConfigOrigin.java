package io.leaderpacer.agent.dynamic;

/**
 * Where a key's effective value comes from, as {@code pacer config --describe} shows it. The agent's properties file
 * sits between the two (it replaces the defaults for the agents that read it), but only the agents see that file.
 */
public enum ConfigOrigin {
    /** Set with {@code pacer config --alter}, stored in the config topic, in force on every agent. */
    DYNAMIC,
    /** Not overridden dynamically: each agent uses its properties file's value, or the built-in default. */
    DEFAULT
}
