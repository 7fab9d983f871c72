package io.leaderpacer.simulator.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * How the simulator lays out the replicas of topics that have no explicit {@code assignment}.
 *
 * <p>Why a choice: the textbook rule of Kafka's replication design puts partition {@code p} on broker
 * {@code p mod n} and its replica {@code j} on broker {@code (p + j) mod n}, so every partition a broker
 * leads has its followers on the same next brokers, and a restart hands all of its leadership to one
 * neighbour. Kafka spreads the followers instead. The textbook rule ({@code consecutive}) stays the default
 * so that existing scenarios and their figures do not move; {@code striped} is Kafka's rack-unaware spread.
 */
public enum Placement {
    /** The textbook rule: replica {@code j} of partition {@code p} (counted over all topics) on {@code (p + j) mod n}. */
    CONSECUTIVE("consecutive"),
    /**
     * Kafka's rack-unaware rule: the first replica round-robin from a start broker, the followers shifted
     * by an offset that grows by one each time the partition number wraps around the broker count.
     */
    STRIPED("striped");

    /** The value written in a scenario file. */
    private final String yamlName;

    Placement(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }

    /** The values accepted in a scenario file, in declaration order. */
    public static List<String> yamlNames() {
        List<String> out = new ArrayList<>();
        for (Placement p : values()) {
            out.add(p.yamlName);
        }
        return out;
    }

    /** The placement written as {@code name}; {@code name} must be one of {@link #yamlNames()}. */
    public static Placement named(String name) {
        for (Placement p : values()) {
            if (p.yamlName.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown placement " + name);
    }

    @Override
    public String toString() {
        return yamlName;
    }
}
