package io.leaderpacer.cluster.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU time a JVM process has used so far, by what its threads do: from {@code /proc/<pid>/task/<tid>/stat} and
 * each thread's name ({@code comm}, the first 15 characters of the Java thread's name).
 *
 * <p>Why: a broker restarted under a CPU cap spends its first seconds on more than its own work: the JVM's JIT
 * compiler threads compile its hot code, and they compete with the replica fetchers and request handlers for the same
 * cap. Which share each takes says what the slow first seconds after unfencing are made of, and whether a cap that
 * also starves the compiler is a fair model of a production broker (whose compiler has cores of its own).
 */
public final class ThreadCpu {

    /** What a broker's threads do, by the name Kafka and the JVM give them. */
    public enum Group {
        /** The JIT compilers ({@code C1 CompilerThread*}, {@code C2 CompilerThread*}). */
        COMPILER,
        /** Garbage collection ({@code GC Thread*}, {@code G1 *}, {@code VM Thread}). */
        GC,
        /** Replica fetchers: the catch-up, and the in-sync replication. */
        REPLICA_FETCHER,
        /** Request handlers ({@code data-plane-kafka-request-handler-*}): produce, fetch from followers. */
        REQUEST_HANDLER,
        /** Network threads ({@code data-plane-kafka-network-thread-*}). */
        NETWORK,
        /** The metadata log and its publishing ({@code kafka-*-raft-*}, {@code *metadata*}, {@code broker-*}). */
        METADATA,
        /** Everything else (log cleaner, schedulers, the JVM's own service threads). */
        OTHER;

        /** The group of a thread by its {@code comm} (at most 15 characters). */
        public static Group of(String comm) {
            String n = comm.trim();
            if (n.startsWith("C1 CompilerThre")
                    || n.startsWith("C2 CompilerThre")
                    || n.startsWith("C1 Compiler")
                    || n.startsWith("C2 Compiler")) {
                return COMPILER;
            }
            if (n.startsWith("GC Thread") || n.startsWith("G1 ") || n.equals("VM Thread")) {
                return GC;
            }
            if (n.startsWith("ReplicaFetcher")) {
                return REPLICA_FETCHER;
            }
            if (n.startsWith("data-plane-kafk") && n.contains("request") || n.startsWith("kafka-request")) {
                return REQUEST_HANDLER;
            }
            if (n.startsWith("data-plane-kafk") || n.contains("network")) {
                return NETWORK;
            }
            String lower = n.toLowerCase(Locale.ROOT);
            if (lower.contains("raft") || lower.contains("metadata") || lower.startsWith("broker-")) {
                return METADATA;
            }
            return OTHER;
        }
    }

    private ThreadCpu() {}

    /**
     * CPU time used so far by each group of the process's threads that are alive now, in nanoseconds (a thread that
     * has exited no longer counts: take the difference of two readings over a short interval).
     *
     * @throws IllegalStateException when the process is not running
     */
    public static Map<Group, Long> of(long pid) {
        Map<Group, Long> out = new EnumMap<>(Group.class);
        for (Group g : Group.values()) {
            out.put(g, 0L);
        }
        Path tasks = Path.of("/proc/" + pid + "/task");
        long perSecond = ProcessCpuTime.ticksPerSecond();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path t : threads) {
                try {
                    String comm = Files.readString(t.resolve("comm"), StandardCharsets.UTF_8);
                    long nanos = ProcessCpuTime.parse(
                                    Files.readString(t.resolve("stat"), StandardCharsets.US_ASCII), perSecond)
                            .toNanos();
                    out.merge(Group.of(comm), nanos, Long::sum);
                } catch (NoSuchFileException e) {
                    // The thread exited while it was read.
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("process " + pid + " is not running (no " + tasks + ")", e);
        }
        return out;
    }
}
