package io.leaderpacer.cluster.cpu;

import io.leaderpacer.cluster.process.ShutdownCleanup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * A CPU cap on one process through a cgroup of its own: v1 ({@code cpu.cfs_quota_us} over
 * {@code cpu.cfs_period_us}) or v2 ({@code cpu.max}).
 *
 * <p>Why a group of its own: the process's current group may hold other processes (the test JVM, the other
 * brokers); a new group with a unique name holds only this one, so the cap is exactly the process's and removing
 * it touches nothing else. Writing the PID to {@code cgroup.procs} moves all its threads at once.
 *
 * <p>Where the group goes: in v1, under the process's current group (quotas nest, so an outer limit still holds).
 * In v2 a group with children may hold no processes, so it goes next to the current group, under its parent.
 */
final class CgroupLimit extends ProcessLimit {

    private final boolean version2;
    /** The CFS period written for the group, microseconds. */
    private final long periodMicros;
    /** The group the process was in, where {@link #remove()} puts it back. */
    private final Path original;
    /** The group this limit created. */
    private final Path group;
    /** The group's path as {@code /proc/<pid>/cgroup} shows it. */
    private final String procPath;

    private CgroupLimit(
            long pid, double cores, long periodMicros, boolean version2, Path original, Path group, String procPath) {
        super(pid, cores);
        this.periodMicros = periodMicros;
        this.version2 = version2;
        this.original = original;
        this.group = group;
        this.procPath = procPath;
    }

    /** @param periodMicros the CFS period, checked by {@link CpuQuota#limit(long, double, java.time.Duration)} */
    static CgroupLimit create(CgroupMount mount, long pid, double cores, long periodMicros) {
        boolean v2 = mount.version2();
        ProcCgroup current = ProcCgroup.of(pid, v2)
                .orElseThrow(() -> new IllegalStateException("process " + pid + " is not running or has no "
                        + (v2 ? "cgroup v2" : "cpu cgroup") + " group"));
        Path original = mount.directoryOf(current.path());
        String parentPath = v2 && !current.path().equals("/") ? ProcCgroup.parent(current.path()) : current.path();
        Path parent = mount.directoryOf(parentPath);
        if (v2) {
            enableCpuController(parent);
        }
        String name = CpuQuota.GROUP_PREFIX + pid + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        Path group = parent.resolve(name);
        try {
            Files.createDirectory(group);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create cgroup " + group, e);
        }
        CgroupLimit limit =
                new CgroupLimit(pid, cores, periodMicros, v2, original, group, ProcCgroup.child(parentPath, name));
        try {
            limit.setQuota();
            write(group.resolve("cgroup.procs"), Long.toString(pid));
        } catch (IOException | RuntimeException e) {
            limit.deleteGroup();
            throw new IllegalStateException("cannot cap process " + pid + " in " + group + ": " + e.getMessage(), e);
        }
        ShutdownCleanup.registerFirst(limit);
        return limit;
    }

    /** Writes the period, then the quota a period ({@code cores} of it). */
    private void setQuota() throws IOException {
        long quota = Math.round(cores * periodMicros);
        if (version2) {
            write(group.resolve("cpu.max"), quota + " " + periodMicros);
        } else {
            write(group.resolve("cpu.cfs_period_us"), Long.toString(periodMicros));
            write(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        }
    }

    /** In v2 a controller works in a group only when its parent delegates it; root may turn that on. */
    private static void enableCpuController(Path parent) {
        Path control = parent.resolve("cgroup.subtree_control");
        try {
            if (!List.of(Files.readString(control).trim().split("\\s+")).contains("cpu")) {
                write(control, "+cpu");
            }
        } catch (IOException e) {
            throw new IllegalStateException(
                    "the cpu controller is not delegated to " + parent + " and cannot be: " + e.getMessage(), e);
        }
    }

    @Override
    public CpuQuota.Mode mode() {
        return version2 ? CpuQuota.Mode.CGROUP_V2 : CpuQuota.Mode.CGROUP_V1;
    }

    @Override
    public Optional<Path> group() {
        return Optional.of(group);
    }

    @Override
    public boolean visibleInProcCgroup() {
        return ProcCgroup.of(pid, version2).map(c -> c.path().equals(procPath)).orElse(false);
    }

    /**
     * In cgroup v1, each thread of the process whose name matches and that is still in this group is written to the
     * original group's {@code tasks} (v1 moves single threads; v2 moves whole processes outside threaded groups).
     */
    @Override
    public synchronized int spareThreads(Predicate<String> comm) {
        if (version2) {
            return super.spareThreads(comm);
        }
        int moved = 0;
        Path tasks = Path.of("/proc/" + pid + "/task");
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path t : threads) {
                try {
                    String name = Files.readString(t.resolve("comm"), StandardCharsets.UTF_8)
                            .trim();
                    if (!comm.test(name)
                            || !Files.readString(t.resolve("cgroup")).contains(procPath)) {
                        continue;
                    }
                    write(original.resolve("tasks"), t.getFileName().toString());
                    moved++;
                } catch (IOException e) {
                    // The thread exited meanwhile.
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the threads of process " + pid, e);
        }
        return moved;
    }

    /** Moves every process still in the group back where the capped one came from, then deletes the group. */
    @Override
    void undo() {
        try {
            for (String p : Files.readAllLines(group.resolve("cgroup.procs"))) {
                if (!p.isBlank()) {
                    moveBack(p.trim());
                }
            }
        } catch (IOException e) {
            // the group is gone already, or unreadable: deleting it below says which
        }
        deleteGroup();
        if (Files.exists(group)) {
            throw new IllegalStateException("cannot remove cgroup " + group + " (processes still in it?)");
        }
    }

    private void moveBack(String p) {
        try {
            write(original.resolve("cgroup.procs"), p);
        } catch (IOException e) {
            // the process has exited meanwhile (ESRCH): nothing to move
        }
    }

    /** rmdir, retried briefly: a process that just exited may still count as a member for a moment. */
    private void deleteGroup() {
        for (int attempt = 0; attempt < 20 && Files.exists(group); attempt++) {
            try {
                Files.delete(group);
            } catch (IOException e) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** cgroup files are written in place, with no create or truncate. */
    private static void write(Path file, String value) throws IOException {
        Files.write(file, value.getBytes(StandardCharsets.US_ASCII), StandardOpenOption.WRITE);
    }

    @Override
    public String toString() {
        return "cgroup " + (version2 ? "v2 " : "v1 ") + group + " capping " + pid + " at " + cores + " cores over "
                + periodMicros / 1000.0 + "-ms periods";
    }
}
