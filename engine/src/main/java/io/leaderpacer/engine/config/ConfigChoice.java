package io.leaderpacer.engine.config;

import java.util.Optional;

/**
 * A constant of an enum setting (the election algorithm, the pacing mode, ...) as a configuration file writes it.
 *
 * <p>Why: each of those enums carried the same loop from a file's word to its constant, and the configuration the
 * same check around it; both are written once, here and in {@link PacerConfig}.
 */
public interface ConfigChoice {

    /** The value as written in a configuration file. */
    String configValue();

    /**
     * The constant of {@code choices} written as {@code value}; empty when none is, or when {@code value} is
     * {@code null}.
     */
    static <E extends Enum<E> & ConfigChoice> Optional<E> forValue(Class<E> choices, String value) {
        for (E c : choices.getEnumConstants()) {
            if (c.configValue().equals(value)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
