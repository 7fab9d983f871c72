package io.leaderpacer.engine.config;

import java.util.Objects;

/**
 * What one key of a properties file is: its name, its default, what it allows and what it means.
 *
 * <p>Why a record: {@link ConfigKey} and the agent's keys each held these four fields with four accessors, line
 * for line; a key enum now holds one of these and {@link TypedKey} reads it, so the validator, the error messages
 * and the reference documentation read a key the same way whichever enum it is in.
 *
 * @param key          the key as written in a properties file
 * @param defaultValue the value when the file does not set it, as a file would write it
 * @param allowed      the allowed values, as a validation error states them after "must be "
 * @param doc          what the key does, for the reference documentation
 */
public record KeySpec(String key, String defaultValue, String allowed, String doc) {

    public KeySpec {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(allowed, "allowed");
        Objects.requireNonNull(doc, "doc");
    }
}
