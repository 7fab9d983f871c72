package io.leaderpacer.cluster.cpu;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Caps the CPU of one process, by PID, with the best mechanism this machine offers.
 *
 * <p>Why: to see what a slow broker does to a cluster (as a replaced disk or a noisy neighbour makes one slow in
 * production), one broker must be saturated while the others are not. A CPU quota on that broker's process does
 * it; {@link ProcessCpuTime} then says how busy it really was. {@link #detect()} picks, in order:
 * <ol>
 *   <li>cgroup v2 ({@code cpu.max}), when the {@code cpu} controller is available on the unified hierarchy;</li>
 *   <li>cgroup v1 ({@code cpu.cfs_quota_us}), when the {@code cpu} hierarchy is mounted and writable;</li>
 *   <li>{@code taskset}, which only pins the process to one core (no fraction of a core);</li>
 *   <li>none, with the reason.</li>
 * </ol>
 * Writing cgroups needs root (or a delegated sub-tree). Apply a cap only once a broker has registered
 * ({@link io.leaderpacer.cluster.ProcessKafkaCluster#awaitRegistered}): a broker started under a 15 % cap took 44 s to start.
 */
public final class CpuQuota {

    /** The CFS period the kernel uses unless told otherwise, and the one a cap uses unless given one. */
    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(100);
    /** The shortest CFS period the kernel accepts. */
    public static final Duration MIN_PERIOD = Duration.ofMillis(1);
    /** The longest CFS period the kernel accepts. */
    public static final Duration MAX_PERIOD = Duration.ofSeconds(1);
    /** The least quota a period the kernel accepts. */
    static final Duration MIN_QUOTA = Duration.ofMillis(1);

    /** Prefix of every group this class creates, so that a leftover one is recognisable. */
    static final String GROUP_PREFIX = "leader-pacer-";

    /** How a limit is applied. */
    public enum Mode {
        /** {@code cpu.max} in a new cgroup v2 group. */
        CGROUP_V2,
        /** {@code cpu.cfs_quota_us} in a new cgroup v1 group of the {@code cpu} hierarchy. */
        CGROUP_V1,
        /** {@code taskset -a}: every thread pinned to one core; the fraction is not enforced. */
        TASKSET,
        /** Nothing available: {@link #limit} throws. */
        NONE;

        /** A cgroup quota: a share of a core over CFS periods, which the kernel bounds. */
        public boolean cgroup() {
            return this == CGROUP_V1 || this == CGROUP_V2;
        }
    }

    /**
     * One applied limit. {@link #remove()} (or {@link #close()}) undoes it; limits still applied when the JVM exits
     * are removed by a shutdown hook, so no group is left behind.
     */
    public interface Limit extends AutoCloseable {

        long pid();

        /** The cap, in cores (0.15 = 15 % of one core). */
        double cores();

        Mode mode();

        /** The group's directory; empty for {@link Mode#TASKSET}. */
        Optional<Path> group();

        /**
         * The group's CFS bandwidth counters now (how often the kernel stopped it at its quota); empty for
         * {@link Mode#TASKSET}, which has no quota to hit, or when the group's {@code cpu.stat} cannot be read.
         */
        default Optional<CgroupThrottling> throttling() {
            return group().flatMap(CgroupThrottling::read);
        }

        /** Whether {@code /proc/<pid>/cgroup} lists this limit's group now (always false for taskset). */
        boolean visibleInProcCgroup();

        /** Moves the process back to the group it came from and deletes the group (or restores the affinity). */
        void remove();

        /**
         * Moves the process's threads whose name ({@code comm}) matches out of the cap, back to the group the process
         * came from, and returns how many it moved now (call it again for threads started since). Only cgroup v1 moves
         * single threads ({@code tasks}); the other modes throw {@link UnsupportedOperationException}.
         */
        default int spareThreads(Predicate<String> comm) {
            throw new UnsupportedOperationException(
                    mode() + " cannot take single threads out of a cap (cgroup v1 can)");
        }

        @Override
        default void close() {
            remove();
        }
    }

    private final Mode mode;
    /** Why this mode was chosen, for logs and skipped tests. */
    private final String reason;
    /** The hierarchy for the cgroup modes, null otherwise. */
    private final CgroupMount mount;

    CpuQuota(Mode mode, String reason, CgroupMount mount) {
        this.mode = mode;
        this.reason = reason;
        this.mount = mount;
    }

    /** The best mechanism here; never throws. */
    public static CpuQuota detect() {
        List<CgroupMount> mounts = CgroupMount.all();
        Optional<CgroupMount> unified = CgroupMount.unified(mounts);
        String v2Note;
        if (unified.isEmpty()) {
            v2Note = "no cgroup2 hierarchy is mounted";
        } else if (!controllers(unified.get().point()).contains("cpu")) {
            v2Note = "the cgroup2 hierarchy at " + unified.get().point() + " has no cpu controller";
        } else if (!Files.isWritable(unified.get().point())) {
            v2Note = "the cgroup2 hierarchy at " + unified.get().point() + " is not writable";
        } else {
            return new CpuQuota(
                    Mode.CGROUP_V2,
                    "cpu controller on the cgroup2 hierarchy at "
                            + unified.get().point(),
                    unified.get());
        }
        Optional<CgroupMount> v1 = CgroupMount.cpuV1(mounts);
        String v1Note;
        if (v1.isEmpty()) {
            v1Note = "no cgroup v1 cpu hierarchy is mounted";
        } else if (!Files.exists(v1.get().point().resolve("cpu.cfs_quota_us"))) {
            v1Note = "the cgroup v1 cpu hierarchy at " + v1.get().point() + " has no CFS quota";
        } else if (!Files.isWritable(v1.get().point())) {
            v1Note = "the cgroup v1 cpu hierarchy at " + v1.get().point() + " is not writable";
        } else {
            return new CpuQuota(
                    Mode.CGROUP_V1, "cgroup v1 cpu hierarchy at " + v1.get().point() + " (" + v2Note + ")", v1.get());
        }
        String notes = v2Note + "; " + v1Note;
        if (onPath("taskset")) {
            return new CpuQuota(Mode.TASKSET, "taskset pins to one core, no fraction of a core (" + notes + ")", null);
        }
        return new CpuQuota(Mode.NONE, notes + "; no taskset on the PATH", null);
    }

    public Mode mode() {
        return mode;
    }

    public String reason() {
        return reason;
    }

    /**
     * Caps the process at {@code cores} (e.g. 0.15 = 15 % of one core) in a new group of its own.
     *
     * @throws IllegalArgumentException when {@code cores} is not in (0, available processors]
     * @throws IllegalStateException    when the mode is {@link Mode#NONE}, the process is not running or the cap
     *                                  cannot be written (nothing is left behind then)
     */
    public Limit limit(long pid, double cores) {
        return limit(pid, cores, DEFAULT_PERIOD);
    }

    /**
     * Refuses a cgroup cap the kernel would: a CFS period outside [{@link #MIN_PERIOD}, {@link #MAX_PERIOD}], or under
     * {@link #MIN_QUOTA} of CPU a period ({@code cores} times {@code period}); the period named as {@code what} (a
     * caller's option name, say). One check for {@link #limit(long, double, Duration)} and for a caller that takes the
     * cap as input long before it applies it.
     *
     * @throws IllegalArgumentException when the kernel would refuse it
     */
    public static void requireCgroupCap(double cores, Duration period, String what) {
        if (period.compareTo(MIN_PERIOD) < 0 || period.compareTo(MAX_PERIOD) > 0) {
            throw new IllegalArgumentException(what + " must be from " + MIN_PERIOD.toMillis() + " ms to "
                    + MAX_PERIOD.toMillis() + " ms (the kernel's bounds), not " + period.toNanos() / 1e6 + " ms");
        }
        long quotaMicros = Math.round(cores * period.toNanos() / 1000.0);
        if (quotaMicros < MIN_QUOTA.toNanos() / 1000) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "%.3f core over a period of %s ms is %.2f ms of CPU a period, under the kernel's minimum of 1 ms (%s)",
                    cores,
                    period.toNanos() / 1e6,
                    quotaMicros / 1000.0,
                    what));
        }
    }

    /**
     * Caps the process at {@code cores} over CFS periods of {@code period}: the same share of a core; a process that
     * uses a period's quota stands until the period ends. A shorter period does not simply make the stops shorter:
     * the kernel hands runtime to each CPU in slices ({@code sched_cfs_bandwidth_slice_us}, usually 5 ms), and a quota
     * near one slice may stop a multi-threaded process more. Taskset has no period and ignores it.
     *
     * @throws IllegalArgumentException when {@code cores} is not in (0, available processors], {@code period} is not in
     *                                  [{@link #MIN_PERIOD}, {@link #MAX_PERIOD}] (the kernel's bounds), or the quota
     *                                  per period, {@code cores} times {@code period}, is under the kernel's 1 ms
     */
    public Limit limit(long pid, double cores, Duration period) {
        int processors = Runtime.getRuntime().availableProcessors();
        if (!(cores > 0) || cores > processors) {
            throw new IllegalArgumentException("cores must be in (0, " + processors + "], not " + cores);
        }
        if (mode.cgroup()) {
            requireCgroupCap(cores, period, "the CPU quota's period");
        }
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            throw new IllegalStateException("process " + pid + " is not running");
        }
        return switch (mode) {
            case CGROUP_V2, CGROUP_V1 -> CgroupLimit.create(mount, pid, cores, period.toNanos() / 1000);
            case TASKSET -> AffinityLimit.create(pid, cores);
            case NONE -> throw new IllegalStateException("no CPU quota is available here: " + reason);
        };
    }

    @Override
    public String toString() {
        return mode + " (" + reason + ")";
    }

    private static List<String> controllers(Path v2Root) {
        try {
            return List.of(Files.readString(v2Root.resolve("cgroup.controllers"))
                    .trim()
                    .split("\\s+"));
        } catch (Exception e) {
            return List.of();
        }
    }

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
