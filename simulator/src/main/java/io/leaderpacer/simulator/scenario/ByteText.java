package io.leaderpacer.simulator.scenario;

import io.leaderpacer.engine.config.ConfigException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes as operators write them: {@code 2GiB}, {@code 200MB}, {@code 512KiB}, {@code 1.5TB}, {@code 4096B}.
 *
 * <p>A unit is required, as for durations: a bare number could be bytes or megabytes, and a scenario that silently
 * read the wrong one would simulate a backlog a million times off.
 */
public final class ByteText {

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]i?B|B)");

    private ByteText() {
    }

    /** Bytes of a size text; throws {@link IllegalArgumentException} saying what is wrong. */
    public static double parseBytes(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + ConfigException.printable(text.trim()) + "' is not a size; write e.g. 2GiB, 200MB, 512KiB or 4096B");
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2).toUpperCase(Locale.ROOT);
        double factor = switch (unit) {
            case "KB" -> 1e3;
            case "MB" -> 1e6;
            case "GB" -> 1e9;
            case "TB" -> 1e12;
            case "KIB" -> 1024.0;
            case "MIB" -> 1024.0 * 1024;
            case "GIB" -> 1024.0 * 1024 * 1024;
            case "TIB" -> 1024.0 * 1024 * 1024 * 1024;
            default -> 1;
        };
        return n * factor;
    }

    static double parse(YamlFields fields, String field) {
        String text = fields.requireString(field);
        try {
            double bytes = parseBytes(text);
            if (bytes > 1e15) {
                throw fields.error(field, text + " is more than 1 PB");
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            throw fields.error(field, e.getMessage());
        }
    }
}
