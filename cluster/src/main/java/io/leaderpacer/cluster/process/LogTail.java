package io.leaderpacer.cluster.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The last lines of a node's log, for error messages.
 *
 * <p>Why: when a node fails, the reason is in its own log file (a config error, a port in use, a missing class);
 * putting the end of it into the exception saves the reader from finding the file, which a failed start deletes.
 * Reading starts at an offset so that a restarted node's message shows its latest run, not an earlier one.
 */
public final class LogTail {

    /** Stack frames ("at ...", "... 5 more") are left out: the exception and "Caused by" lines say why. */
    private static final Pattern STACK_FRAME = Pattern.compile("^\\s+(at |\\.\\.\\. \\d+ more)");
    /** At most this many bytes are read from the end: enough for 20 long lines, bounded for huge logs. */
    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {}

    /** The last {@code lines} lines (stack frames left out) written at or after {@code fromOffset}, or a note. */
    public static String of(Path file, long fromOffset, int lines) {
        if (!Files.isRegularFile(file)) {
            return "(no log at " + file + ")";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            long start = Math.max(Math.max(0, fromOffset), length - MAX_BYTES);
            if (start >= length) {
                return "(nothing logged)";
            }
            byte[] bytes = new byte[(int) (length - start)];
            in.seek(start);
            in.readFully(bytes);
            List<String> all = Arrays.stream(new String(bytes, StandardCharsets.UTF_8).split("\\R"))
                    .filter(line -> !STACK_FRAME.matcher(line).find())
                    .toList();
            List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
            return "    " + String.join(System.lineSeparator() + "    ", last);
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** Whether the text written at or after {@code fromOffset} holds {@code needle} (the last 1 MiB is searched). */
    public static boolean contains(Path file, long fromOffset, String needle) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            long start = Math.max(Math.max(0, fromOffset), length - 1024 * 1024);
            if (start >= length) {
                return false;
            }
            byte[] bytes = new byte[(int) (length - start)];
            in.seek(start);
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8).contains(needle);
        } catch (IOException e) {
            return false;
        }
    }

    /** The current size of the file, 0 when it does not exist yet: where the next run's lines will start. */
    public static long sizeOf(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
