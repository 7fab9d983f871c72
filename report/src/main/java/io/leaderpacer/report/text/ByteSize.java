package io.leaderpacer.report.text;

import io.leaderpacer.engine.config.ConfigException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte sizes as operators write them: {@code 2g}, {@code 512MiB}, {@code 64m}, {@code 2GB}, {@code 1.5k},
 * {@code 1048576}.
 *
 * <p>One meaning for every spelling, the one Kafka's and the JVM's users already work with: the units k, m, g and t
 * count in powers of 1024, with or without a trailing {@code b} or {@code ib} and in any case ({@code 1g},
 * {@code 1GB} and {@code 1GiB} are all 2^30 bytes), as the JVM reads {@code -Xmx1g} and as Kafka documents its byte
 * settings ({@code log.segment.bytes=1073741824} is "1 gibibyte", {@code replica.fetch.max.bytes=1048576} "1
 * mebibyte"); a bare number is bytes, as every Kafka {@code *.bytes} setting and {@code -Xmx} read it. A decimal
 * fraction is allowed and rounded to whole bytes.
 *
 * <p>Why one meaning: the simulator's scenarios read {@code MB} as 10^6 and required a unit, while the load test read
 * {@code m} as 2^20 and took bare numbers, so the same text gave sizes 4.9 % apart (7 % for {@code G}) depending on
 * where it was written, and a calibrated scenario could silently differ from the run it models.
 */
public final class ByteSize {

    /** Largest size accepted: far beyond any backlog worth writing or simulating, far below where a long overflows. */
    public static final long MAX_BYTES = 1L << 50;

    /** What help texts and error messages say is accepted. */
    public static final String HELP = "a number of bytes, or a number and a unit k, m, g or t (with or without b or ib,"
            + " each 1024 times the one before, as the JVM's -Xmx and Kafka's byte settings count), e.g. 1048576, 64m,"
            + " 512MiB, 2GB, 1.5g";

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(?:([kmgt])(?:i?b)?|b)?");

    private ByteSize() {}

    /**
     * Bytes of a size text, 0 to {@link #MAX_BYTES}.
     *
     * @throws IllegalArgumentException saying what is accepted
     */
    public static long parse(String text) {
        return parse(text, 0);
    }

    /**
     * Bytes of a size text, 1 to {@link #MAX_BYTES}: for sizes where nothing makes no sense.
     *
     * @throws IllegalArgumentException saying what is accepted
     */
    public static long parsePositive(String text) {
        return parse(text, 1);
    }

    private static long parse(String text, long min) {
        Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "'" + ConfigException.printable(text.strip()) + "' is not a size; write " + HELP);
        }
        int shift = m.group(2) == null
                ? 0
                : switch (m.group(2)) {
                    case "k" -> 10;
                    case "m" -> 20;
                    case "g" -> 30;
                    default -> 40;
                };
        double bytes = Double.parseDouble(m.group(1)) * (1L << shift);
        if (bytes < min || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("'" + ConfigException.printable(text.strip())
                    + "' is out of range: between " + (min == 1 ? "1 byte" : min + " bytes") + " and 1 PiB");
        }
        return Math.round(bytes);
    }
}
