package io.leaderpacer.agent.dynamic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.leaderpacer.engine.config.ConfigException.printable;

/**
 * The {@code --add-config} and {@code --delete-config} argument syntax of {@code kafka-configs.sh}:
 * {@code k1=v1,k2=v2} and {@code k1,k2}.
 *
 * <p>Why its own class: the deprioritized list's value is itself comma-separated. {@code kafka-configs.sh} wants
 * such values in square brackets ({@code preferred.leader.deprioritized.list=[1,2]}); this parser accepts that,
 * and also the unbracketed form {@code preferred.leader.deprioritized.list=1,2,k=v}, because a piece without
 * {@code =} can only continue the previous value (no key lacks a dot and an equals sign).
 */
public final class ConfigAssignments {

    private ConfigAssignments() {}

    /**
     * Parses one or more {@code --add-config} arguments into key to value, in order.
     *
     * @throws IllegalArgumentException naming the piece that is not {@code key=value}, or a key given twice
     */
    public static Map<String, String> parseAdd(List<String> arguments) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String argument : arguments) {
            String lastKey = null;
            for (String piece : splitOutsideBrackets(argument)) {
                int eq = piece.indexOf('=');
                if (eq < 0) {
                    if (lastKey == null || piece.isBlank()) {
                        throw new IllegalArgumentException(
                                "--add-config '" + printable(argument) + "': '" + printable(piece.trim())
                                        + "' is not key=value; expected key=value[,key=value...] (a list value may be bracketed: key=[1,2])");
                    }
                    out.put(lastKey, out.get(lastKey) + "," + piece.trim());
                    continue;
                }
                String key = piece.substring(0, eq).trim();
                String value = stripBrackets(piece.substring(eq + 1).trim());
                if (key.isEmpty()) {
                    throw new IllegalArgumentException(
                            "--add-config '" + printable(argument) + "': a key is missing before '='");
                }
                if (out.containsKey(key)) {
                    throw new IllegalArgumentException("--add-config: key '" + printable(key) + "' is given twice");
                }
                out.put(key, value);
                lastKey = key;
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * Parses one or more {@code --delete-config} arguments into key names.
     *
     * @throws IllegalArgumentException for an empty key or a {@code key=value} piece
     */
    public static Set<String> parseDelete(List<String> arguments) {
        Set<String> out = new LinkedHashSet<>();
        for (String argument : arguments) {
            for (String piece : argument.split(",", -1)) {
                String key = piece.trim();
                if (key.isEmpty() || key.contains("=")) {
                    throw new IllegalArgumentException("--delete-config '" + printable(argument) + "': "
                            + (key.isEmpty() ? "an empty key name" : "'" + printable(key) + "' is not a key name")
                            + "; expected key[,key...]");
                }
                out.add(key);
            }
        }
        return Collections.unmodifiableSet(out);
    }

    private static List<String> splitOutsideBrackets(String argument) {
        List<String> pieces = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < argument.length(); i++) {
            char c = argument.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth = Math.max(0, depth - 1);
            }
            if (c == ',' && depth == 0) {
                pieces.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        pieces.add(current.toString());
        return pieces;
    }

    private static String stripBrackets(String value) {
        if (value.length() >= 2 && value.charAt(0) == '[' && value.charAt(value.length() - 1) == ']') {
            return value.substring(1, value.length() - 1).trim();
        }
        return value;
    }
}
