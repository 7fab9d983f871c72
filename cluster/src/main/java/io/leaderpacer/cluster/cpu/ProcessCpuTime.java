package io.leaderpacer.cluster.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time a process has used so far (user + system, all threads), from {@code /proc/<pid>/stat}.
 *
 * <p>Why: a CPU cap says what a broker may use, not what it used; the difference of two readings over an interval
 * says how busy it really was (1 s of CPU per second = one full core).
 */
public final class ProcessCpuTime {

    private ProcessCpuTime() {}

    /**
     * CPU time used by the process so far.
     *
     * @throws IllegalStateException when the process is not running (its stat file is gone)
     */
    public static Duration of(long pid) {
        try {
            return parse(
                    Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII), Ticks.PER_SECOND);
        } catch (IOException e) {
            throw new IllegalStateException("process " + pid + " is not running (no /proc/" + pid + "/stat)", e);
        }
    }

    /**
     * utime + stime of a stat line, in clock ticks converted to time. Fields are counted after the last ')',
     * because the command name in parentheses may itself hold spaces and parentheses.
     */
    static Duration parse(String stat, long ticksPerSecond) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // fields[0] is field 3 (state); utime is field 14, stime field 15.
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return Duration.ofNanos(ticks * 1_000_000_000L / ticksPerSecond);
    }

    /** Clock ticks per second, as {@link #parse} takes them. */
    static long ticksPerSecond() {
        return Ticks.PER_SECOND;
    }

    /** Clock ticks per second ({@code getconf CLK_TCK}), read once; 100 when it cannot be read. */
    private static final class Ticks {
        static final long PER_SECOND = read();

        private static long read() {
            try {
                Process p = new ProcessBuilder("getconf", "CLK_TCK")
                        .redirectErrorStream(true)
                        .start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
                if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    long ticks = Long.parseLong(out);
                    return ticks > 0 ? ticks : 100;
                }
            } catch (IOException | NumberFormatException e) {
                return 100;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 100;
        }
    }
}
