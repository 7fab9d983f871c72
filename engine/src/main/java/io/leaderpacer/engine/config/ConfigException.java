package io.leaderpacer.engine.config;

/**
 * A configuration value the policy refuses. The message names the key, the value given and what
 * is allowed; the caller's previous configuration is untouched.
 */
public final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The offending key. */
    private final String key;
    /** The value as given (may be {@code null} for a missing value). */
    private final String value;

    public ConfigException(String key, String value, String allowed) {
        super("Invalid value '" + value + "' for configuration '" + key + "': " + allowed);
        this.key = key;
        this.value = value;
    }

    private ConfigException(String key, String message, boolean unknownKey) {
        super(message);
        this.key = key;
        this.value = null;
    }

    /** An error for a key the policy does not know. */
    public static ConfigException unknownKey(String key, Iterable<String> known) {
        return new ConfigException(key, "Unknown configuration '" + key + "'; known keys: " + String.join(", ", known), true);
    }

    public String key() {
        return key;
    }

    public String value() {
        return value;
    }
}
