package io.leaderpacer.engine.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A constant of an enum of settings, known in a file by its name: the lookup by that name and the list of names.
 *
 * <p>Why: the policy's keys ({@link ConfigKey}), the agent's {@code pacer.*} keys and the simulator's model
 * parameters are each an enum whose constants a file names, and each carried the same loop to find a constant by
 * its name and the same loop to list the names (for "unknown key; known keys: ..."). They share it here. The
 * simulator's parameters have a numeric default and range rather than a {@link KeySpec}, so the lookup needs no
 * more than the name ({@link TypedKey} adds the rest).
 */
public interface NamedKey {

    /** The name the file writes the setting under. */
    String key();

    /**
     * The constant of {@code keys} whose {@linkplain #key() name} is {@code name}; empty when none is, or when
     * {@code name} is {@code null}.
     */
    static <E extends Enum<E> & NamedKey> Optional<E> forName(Class<E> keys, String name) {
        for (E k : keys.getEnumConstants()) {
            if (k.key().equals(name)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /** The names of every constant of {@code keys}, in declaration order, in a new list. */
    static <E extends Enum<E> & NamedKey> List<String> names(Class<E> keys) {
        List<String> names = new ArrayList<>();
        for (E k : keys.getEnumConstants()) {
            names.add(k.key());
        }
        return names;
    }
}
