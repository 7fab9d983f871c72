package io.leaderpacer.cluster.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How often the kernel stopped a capped group for having used its quota: the CFS bandwidth counters of the group's
 * {@code cpu.stat} (v1 and v2 name the time differently: {@code throttled_time} in nanoseconds, {@code throttled_usec}
 * in microseconds).
 *
 * <p>Why: a cap's average use says little about what a request waits for. A broker that uses a fifth of its half-core
 * quota on average can still spend its 50 ms of a 100-ms period in one fetch burst and then stop every thread until the
 * period ends; {@code nr_throttled} counts those periods and the throttled time says how long the threads stood. The
 * difference of two readings ({@link #minus}) is what happened between them.
 *
 * @param periods          CFS periods in which the group could run (it had work)
 * @param throttledPeriods of those, the periods in which it used its whole quota and was stopped
 * @param throttledNanos   the time its threads stood stopped, summed
 */
public record CgroupThrottling(long periods, long throttledPeriods, long throttledNanos) {

    /** The counters of the group in {@code directory} now; empty when its {@code cpu.stat} cannot be read. */
    public static Optional<CgroupThrottling> read(Path directory) {
        try {
            return Optional.of(parse(Files.readString(directory.resolve("cpu.stat"), StandardCharsets.US_ASCII)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The counters of a {@code cpu.stat} file's text, v1 or v2; lines it does not use (v2's usage lines, bursts) are
     * skipped.
     *
     * @throws IllegalArgumentException when the text has no {@code nr_periods} and {@code nr_throttled} (not a CFS
     *                                  bandwidth file: no quota was ever set on the group, or the controller is off)
     */
    public static CgroupThrottling parse(String cpuStat) {
        long periods = -1;
        long throttled = -1;
        long nanos = 0;
        for (String line : cpuStat.split("\n")) {
            String[] kv = line.trim().split("\\s+");
            if (kv.length != 2) {
                continue;
            }
            switch (kv[0]) {
                case "nr_periods" -> periods = Long.parseLong(kv[1]);
                case "nr_throttled" -> throttled = Long.parseLong(kv[1]);
                case "throttled_time" -> nanos = Long.parseLong(kv[1]);
                case "throttled_usec" -> nanos = Long.parseLong(kv[1]) * 1_000;
                default -> {}
            }
        }
        if (periods < 0 || throttled < 0) {
            throw new IllegalArgumentException(
                    "not a CFS bandwidth cpu.stat (no nr_periods and nr_throttled): " + cpuStat.strip());
        }
        return new CgroupThrottling(periods, throttled, nanos);
    }

    /** What happened since {@code earlier}: each counter's difference (never below 0, should a group be recreated). */
    public CgroupThrottling minus(CgroupThrottling earlier) {
        return new CgroupThrottling(
                Math.max(0, periods - earlier.periods),
                Math.max(0, throttledPeriods - earlier.throttledPeriods),
                Math.max(0, throttledNanos - earlier.throttledNanos));
    }
}
