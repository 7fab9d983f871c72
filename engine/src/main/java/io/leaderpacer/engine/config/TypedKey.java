package io.leaderpacer.engine.config;

/**
 * A key of a properties file as a constant of an enum, described by its {@link KeySpec}.
 *
 * <p>Why: a key enum then holds one spec and nothing else about the key; its name, default, allowed values and
 * documentation are read through these methods the same way for the policy's keys ({@link ConfigKey}) and the
 * agent's, and {@link NamedKey#forName(Class, String)} and {@link KeyCheck} work on either.
 */
public interface TypedKey extends NamedKey {

    /** The key's description. */
    KeySpec spec();

    /** The key as written in a properties file. */
    @Override
    default String key() {
        return spec().key();
    }

    /** The value when the file does not set it, as a file would write it. */
    default String defaultValue() {
        return spec().defaultValue();
    }

    /** The allowed values, as the validation error states them. */
    default String allowed() {
        return spec().allowed();
    }

    /** What the key does. */
    default String doc() {
        return spec().doc();
    }
}
