package io.leaderpacer.agent.dynamic;

import java.util.Objects;
import java.util.Optional;

/**
 * One line of {@code pacer config --describe}.
 *
 * @param key     the policy key
 * @param value   the stored dynamic value, or the built-in default
 * @param origin  dynamic override or default
 * @param doc     what the key does
 * @param problem why a stored value is not in force (invalid or unknown key), empty when it is
 */
public record DescribedConfig(String key, String value, ConfigOrigin origin, String doc, Optional<String> problem) {

    public DescribedConfig {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(doc, "doc");
        Objects.requireNonNull(problem, "problem");
    }
}
