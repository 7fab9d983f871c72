package io.leaderpacer.cluster.cpu;

import io.leaderpacer.cluster.process.ShutdownCleanup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The fallback when no cgroup can be written: {@code taskset} pins every thread of the process to one core.
 *
 * <p>Why it is only a fallback: it cannot give a fraction of a core, so the process may still use a whole one; it
 * does keep a busy broker off the other cores, which is better than nothing on a machine without cgroup access.
 */
final class AffinityLimit extends ProcessLimit {

    /** The CPU list the process had, restored by {@link #remove()}. */
    private final String originalCpus;

    private AffinityLimit(long pid, double cores, String originalCpus) {
        super(pid, cores);
        this.originalCpus = originalCpus;
    }

    static AffinityLimit create(long pid, double cores) {
        String original = currentCpus(pid);
        String cpu = Integer.toString(highestCpu(original));
        run("taskset", "-a", "-c", "-p", cpu, Long.toString(pid));
        AffinityLimit limit = new AffinityLimit(pid, cores, original);
        ShutdownCleanup.registerFirst(limit);
        return limit;
    }

    /** "pid 42's current affinity list: 0-1" to "0-1". */
    static String currentCpus(long pid) {
        String out = run("taskset", "-c", "-p", Long.toString(pid));
        return out.substring(out.lastIndexOf(':') + 1).trim();
    }

    /** The highest CPU of a list such as {@code 0-3,6}. */
    static int highestCpu(String list) {
        int highest = 0;
        for (String part : list.split(",")) {
            String last = part.contains("-") ? part.substring(part.indexOf('-') + 1) : part;
            highest = Math.max(highest, Integer.parseInt(last.trim()));
        }
        return highest;
    }

    @Override
    public CpuQuota.Mode mode() {
        return CpuQuota.Mode.TASKSET;
    }

    @Override
    public Optional<Path> group() {
        return Optional.empty();
    }

    /** There is no group: always false. */
    @Override
    public boolean visibleInProcCgroup() {
        return false;
    }

    /** Restores the affinity the process had, unless it has exited. */
    @Override
    void undo() {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            run("taskset", "-a", "-c", "-p", originalCpus, Long.toString(pid));
        }
    }

    private static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(
                        String.join(" ", command) + " exited with " + p.exitValue() + ": " + out.trim());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + List.of(command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + List.of(command), e);
        }
    }

    @Override
    public String toString() {
        return "taskset pinning " + pid + " to one core (asked for " + cores + " cores)";
    }
}
