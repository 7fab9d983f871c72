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

    /** Longest value or key quoted whole in a message; a longer one is shortened (a message is one readable line). */
    private static final int MAX_QUOTED = 120;

    public ConfigException(String key, String value, String allowed) {
        super("Invalid value '" + printable(value) + "' for configuration '" + printable(key) + "': " + allowed);
        this.key = key;
        this.value = value;
    }

    private ConfigException(String key, String message, boolean unknownKey) {
        super(message);
        this.key = key;
        this.value = null;
    }

    /** A value the key does not allow: "Invalid value 'VALUE' for configuration 'KEY': must be ALLOWED". */
    public static ConfigException invalid(ConfigKey key, String value) {
        return new ConfigException(key.key(), value, "must be " + key.allowed());
    }

    /** An error for a key the policy does not know. */
    public static ConfigException unknownKey(String key, Iterable<String> known) {
        return new ConfigException(
                key, "Unknown configuration '" + printable(key) + "'; known keys: " + String.join(", ", known), true);
    }

    /**
     * Text as an error message quotes it: control characters escaped as Java escapes (a line break as backslash-n) so the
     * message stays on one line, and shortened past {@value #MAX_QUOTED} characters with the full length given.
     * Why: the message goes to a terminal or a log line as it is; a value read from a file can hold anything.
     */
    public static String printable(String text) {
        if (text == null) {
            return "null";
        }
        String shown = text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) : text;
        StringBuilder sb = new StringBuilder(shown.length() + 16);
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            switch (c) {
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (Character.isISOControl(c)
                            || Character.getType(c) == Character.LINE_SEPARATOR
                            || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        if (shown.length() < text.length()) {
            sb.append("... (").append(text.length()).append(" characters)");
        }
        return sb.toString();
    }

    public String key() {
        return key;
    }

    public String value() {
        return value;
    }
}
