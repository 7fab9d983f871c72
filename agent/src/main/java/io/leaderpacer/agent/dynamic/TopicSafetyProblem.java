package io.leaderpacer.agent.dynamic;

import java.util.Objects;

/**
 * One way a state topic could lose or stall the agent's state, with the command that fixes it.
 *
 * <p>Why a value of its own: the operator must learn every problem of the topic at once (not one per restart),
 * each with what the setting is, what it must be and how to change it; tests check each one separately.
 *
 * @param setting  the topic setting at fault (a topic config key, or {@code partitions} / {@code replication factor})
 * @param actual   its value now
 * @param required what it must be
 * @param why      what would go wrong with the value it has
 * @param fix      the Kafka command line (or steps) that fixes it
 */
public record TopicSafetyProblem(String setting, String actual, String required, String why, String fix) {

    public TopicSafetyProblem {
        Objects.requireNonNull(setting, "setting");
        Objects.requireNonNull(actual, "actual");
        Objects.requireNonNull(required, "required");
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(fix, "fix");
    }

    /** One paragraph: setting, value, requirement, consequence, fix. */
    public String describe() {
        return setting + " is " + actual + ", must be " + required + ": " + why + ". Fix: " + fix;
    }
}
