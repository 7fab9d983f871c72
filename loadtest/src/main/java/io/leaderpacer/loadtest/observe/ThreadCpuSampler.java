package io.leaderpacer.loadtest.observe;

import io.leaderpacer.cluster.cpu.CpuQuota;
import io.leaderpacer.cluster.cpu.ThreadCpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Each second, the restarted broker's CPU use by what its threads do ({@link ThreadCpu}), from its registration until
 * a time the round sets (a minute after unfencing); and, when its cap spares the JIT compiler, the compiler threads
 * started since taken out of the cap.
 *
 * <p>Why: the first seconds after unfencing were the slow ones of every paced round, with the broker at its quota
 * under every policy; which of its threads took that quota says whether they are its catch-up's work, its in-sync
 * replication's, or the JVM's own warm-up that a production broker does on cores the cap here withholds.
 */
public final class ThreadCpuSampler implements AutoCloseable {

    /** One group's CPU use over the second that ends at {@code atMs}, in cores. */
    public record Sample(long atMs, ThreadCpu.Group group, double cores) {}

    private final long pid;
    private final Optional<CpuQuota.Limit> spare;
    private final LongSupplier nowMs;
    private final List<Sample> samples = new ArrayList<>();
    private final ScheduledExecutorService ticker;
    private Map<ThreadCpu.Group, Long> last;
    private long lastAtMs;
    private volatile long untilMs = Long.MAX_VALUE;
    private int spared;

    /**
     * Starts sampling.
     *
     * @param spare the cap whose compiler threads are taken out of it each second; empty when none are
     */
    public ThreadCpuSampler(long pid, Optional<CpuQuota.Limit> spare, LongSupplier nowMs) {
        this.pid = pid;
        this.spare = spare;
        this.nowMs = nowMs;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadtest-thread-cpu");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::tick, 0, 1, TimeUnit.SECONDS);
    }

    /** Samples up to {@code atMs} (the round's clock); it goes on sparing the compiler until closed. */
    public void until(long atMs) {
        untilMs = atMs;
    }

    private synchronized void tick() {
        long now = nowMs.getAsLong();
        try {
            spare.ifPresent(cap -> spared += cap.spareThreads(n -> ThreadCpu.Group.of(n) == ThreadCpu.Group.COMPILER));
            if (now > untilMs) {
                return;
            }
            Map<ThreadCpu.Group, Long> cpu = ThreadCpu.of(pid);
            if (last != null && now > lastAtMs) {
                for (ThreadCpu.Group g : ThreadCpu.Group.values()) {
                    long used = Math.max(0, cpu.get(g) - last.getOrDefault(g, 0L));
                    samples.add(new Sample(now, g, used / 1e6 / (now - lastAtMs)));
                }
            }
            last = cpu;
            lastAtMs = now;
        } catch (RuntimeException e) {
            // The broker stopped, or its threads could not be read: nothing this second.
        }
    }

    /** Every sample so far, oldest first. */
    public synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** How many compiler threads were taken out of the cap. */
    public synchronized int spared() {
        return spared;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
