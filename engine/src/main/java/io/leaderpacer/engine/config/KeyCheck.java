package io.leaderpacer.engine.config;

import java.util.function.BiFunction;

/**
 * The check a validated setting makes: a value that fails its rule is refused, naming the key, the value and what
 * the key allows.
 *
 * <p>Why one place: the policy's records each carried a private copy of this check. The policy throws
 * {@link ConfigException}; a module with its own exception and message (the agent names the file too) passes its
 * factory, so each keeps its exception type and message while the check itself is written once.
 */
public final class KeyCheck {

    private KeyCheck() {}

    /**
     * Unless {@code ok}, throws {@link ConfigException#invalid(ConfigKey, String)}: "Invalid value 'VALUE' for
     * configuration 'KEY': must be ALLOWED".
     */
    public static void require(boolean ok, ConfigKey key, String value) {
        require(ok, key, value, ConfigException::invalid);
    }

    /** Unless {@code ok}, throws what {@code invalid} makes of the key and the value. */
    public static <K extends NamedKey, X extends RuntimeException> void require(
            boolean ok, K key, String value, BiFunction<? super K, String, X> invalid) {
        if (!ok) {
            throw invalid.apply(key, value);
        }
    }
}
