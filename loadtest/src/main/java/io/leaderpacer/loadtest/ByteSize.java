package io.leaderpacer.loadtest;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes as operators write them: {@code 1g}, {@code 512MiB}, {@code 64m}, {@code 1048576} (binary units).
 */
public final class ByteSize {

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgt]?)(i?b)?");

    private ByteSize() {
    }

    /** @throws IllegalArgumentException saying what is accepted */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size; write a number and an optional unit"
                    + " (k, m, g, t: binary), e.g. 1g, 512m, 64MiB");
        }
        double value = Double.parseDouble(m.group(1));
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        double bytes = value * (1L << shift);
        if (bytes < 1 || bytes > (1L << 50)) {
            throw new IllegalArgumentException("'" + text + "' is out of range: between 1 byte and 1 PiB");
        }
        return Math.round(bytes);
    }
}
