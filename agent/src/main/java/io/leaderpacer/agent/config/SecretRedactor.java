package io.leaderpacer.agent.config;

import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises secret client properties and removes their values from anything the agent shows.
 *
 * <p>Why: the properties file carries TLS and SASL credentials for the Admin client. They must not appear in
 * logs, in {@code /status}, in metrics or in a printed exception (Kafka's own messages can echo parts of a
 * JAAS configuration). Two defences: values of secret keys are shown as {@value #REDACTED}, and
 * {@link #scrub(String)} replaces every known secret value (and every {@code password="..."} style option of a
 * JAAS configuration) in free text before it is printed.
 */
public final class SecretRedactor {

    /** What a redacted value is shown as. */
    public static final String REDACTED = "[redacted]";

    /** Fragments of key names that mark a value as secret (lower case). */
    private static final List<String> SECRET_KEY_FRAGMENTS =
            List.of("password", "secret", "jaas", "credential", "token", "basic.auth");
    /** Exact keys that are secret without saying so (a PEM private key). */
    private static final List<String> SECRET_KEYS = List.of("ssl.keystore.key");
    /** Secret values shorter than this are not scrubbed from free text (they would mangle ordinary words). */
    private static final int MIN_SCRUB_LENGTH = 3;
    /** Lines of a PEM secret at least this long are scrubbed one by one (shorter ones: too likely in ordinary text). */
    private static final int MIN_PEM_LINE = 16;
    /** An option inside a JAAS line whose name looks secret, e.g. {@code password="x"} or {@code secret=x}. */
    private static final Pattern JAAS_SECRET_OPTION = Pattern.compile(
            "(?i)([\\w.-]*(?:password|secret|token|credential)[\\w.-]*\\s*=\\s*)(\"[^\"]*\"|'[^']*'|[^\\s;]+)");

    /** Secret values known from the loaded properties, longest first so that overlapping values scrub fully. */
    private final List<String> secretValues;

    private SecretRedactor(List<String> secretValues) {
        this.secretValues = secretValues;
    }

    /** A redactor that knows no secret values (still recognises secret keys and JAAS options). */
    public static SecretRedactor none() {
        return new SecretRedactor(List.of());
    }

    /** A redactor that scrubs the values of every secret key of these properties. */
    public static SecretRedactor of(Map<String, String> properties) {
        List<String> values = new ArrayList<>();
        for (Map.Entry<String, String> e : properties.entrySet()) {
            if (isSecret(e.getKey()) && e.getValue() != null && e.getValue().length() >= MIN_SCRUB_LENGTH) {
                values.add(e.getValue());
                addPemLines(e.getValue(), values);
                Matcher m = JAAS_SECRET_OPTION.matcher(e.getValue());
                while (m.find()) {
                    String v = unquote(m.group(2));
                    if (v.length() >= MIN_SCRUB_LENGTH) {
                        values.add(v);
                    }
                }
            }
        }
        values.sort(Comparator.comparingInt(String::length).reversed());
        return new SecretRedactor(List.copyOf(values));
    }

    /**
     * A PEM key ({@code ssl.keystore.key}) may reach a message in pieces (one line of it, or with other line ends):
     * each of its base64 lines is a secret of its own.
     */
    private static void addPemLines(String value, List<String> values) {
        if (!value.contains("-----BEGIN")) {
            return;
        }
        for (String line : value.split("\\R|\\\\n")) {
            String l = line.trim();
            if (l.length() >= MIN_PEM_LINE && !l.startsWith("-----")) {
                values.add(l);
            }
        }
    }

    /** Whether a property's value must never be shown. */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        if (SECRET_KEYS.contains(k)) {
            return true;
        }
        for (String fragment : SECRET_KEY_FRAGMENTS) {
            if (k.contains(fragment)) {
                return true;
            }
        }
        return false;
    }

    /** The properties with every secret value replaced by {@value #REDACTED}, in the same order. */
    public static Map<String, String> redact(Map<String, String> properties) {
        Map<String, String> out = new LinkedHashMap<>();
        properties.forEach((k, v) -> out.put(k, isSecret(k) ? REDACTED : v));
        return out;
    }

    /** The text with every known secret value, and every secret-looking JAAS option, replaced. */
    public String scrub(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String secret : secretValues) {
            out = out.replace(secret, REDACTED);
        }
        return JAAS_SECRET_OPTION.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + REDACTED));
    }

    /**
     * One line describing a failure for an operator, scrubbed: the message of the failure under the executor's
     * wrappers. Never a Java class name: a failure without a message is named by what kind of failure it is.
     */
    public String describe(Throwable error) {
        Throwable root = error;
        while ((root instanceof ExecutionException || root instanceof CompletionException) && root.getCause() != null) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return scrub(message == null || message.isBlank() ? withoutMessage(root) : message);
    }

    /** Words for a failure that carries no message. */
    private static String withoutMessage(Throwable error) {
        if (error instanceof TimeoutException || error instanceof org.apache.kafka.common.errors.TimeoutException) {
            return "timed out";
        }
        if (error instanceof InterruptedException) {
            return "interrupted";
        }
        if (error instanceof ApiException) {
            return "Kafka answered " + Errors.forException(error).name();
        }
        return "unexpected error without a message (details at debug level)";
    }

    /**
     * A copy of the exception, and of its causes, with every message scrubbed and the stack traces kept: what the
     * agent hands to a logger when it logs a stack trace (at debug level), so that not even a debug log shows a
     * secret a library put into an exception message.
     */
    public Throwable scrubbed(Throwable error) {
        return scrubbed(error, 0);
    }

    private Throwable scrubbed(Throwable error, int depth) {
        if (error == null || depth > 10) {
            return null;
        }
        ScrubbedException copy = new ScrubbedException(
                error.getClass().getName() + (error.getMessage() == null ? "" : ": " + scrub(error.getMessage())),
                scrubbed(error.getCause(), depth + 1));
        copy.setStackTrace(error.getStackTrace());
        return copy;
    }

    /** Stands in for an exception whose message was scrubbed; its message starts with the original class name. */
    static final class ScrubbedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ScrubbedException(String message, Throwable cause) {
            super(message, cause);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }
}
