package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.kafka.CanaryTopic;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * The adaptive pacing mode's health signal: a small producer of the agent's own that writes {@code acks=all} records
 * to a topic with one partition per broker, every broker a follower of some, and measures what its sends feel.
 *
 * <p>Why a canary: the producers the pacing protects are the cluster's, and the agent cannot see their latency on
 * unmodified Kafka. Its own writes, to partitions where a recovering broker is an in-sync follower, wait for that
 * broker exactly as theirs do. {@link #apply(int)} is their recent P99 over the canary's steady P99, taken while every
 * canary partition had its full ISR.
 *
 * <p>It needs Create, Write and Describe on its topic ({@value #DEFAULT_TOPIC} by default). Records are 64 bytes,
 * {@value #SENDS_PER_SECOND} per partition and second; the topic keeps a minute of them. The topic and the producer
 * are the port {@link CanaryTopic}'s; this class schedules the sends and reads what they felt.
 */
public final class Canary implements IntFunction<OptionalDouble>, AutoCloseable {

    /** The canary topic's default name. */
    public static final String DEFAULT_TOPIC = "_leader-pacer-canary";
    /** Sends per partition and second. */
    static final int SENDS_PER_SECOND = 10;
    /** The window a ratio is taken over. */
    static final long WINDOW_MS = 5000;
    /** How many steady windows the reference keeps (their median is the reference). */
    static final int STEADY_WINDOWS = 30;
    /** Fewer sends than this in a window give no ratio: a P99 of a handful is noise. */
    static final int MIN_SAMPLES = 20;

    private final CanaryTopic kafka;
    private final LongSupplier clockMs;

    /**
     * Guards the samples and the steady windows. Apart from the lifecycle's monitor ({@code this}): the producer's
     * I/O thread records samples, and {@link #close()} waits for that thread, so the two must never share a lock.
     */
    private final Object samples = new Object();
    /** Per partition, (completed at ms, latency ms) of recent sends, oldest first. */
    private final Map<Integer, Deque<long[]>> latencies = new HashMap<>();
    /** P99s of recent windows in which every canary partition had its full ISR, newest last. */
    private final Deque<Double> steady = new ArrayDeque<>();
    /** The topic as last described: per partition, its leader and ISR. */
    private volatile Map<Integer, TopicPartitionInfo> layout = Map.of();

    /** Sends while started: null before {@link #start} and after {@link #close()}. */
    private ScheduledExecutorService sender;

    public Canary(Admin admin, Map<String, ?> clientProperties, String topic, Duration timeout, LongSupplier clockMs) {
        this.kafka = new CanaryTopic(admin, clientProperties, topic, timeout);
        this.clockMs = clockMs;
    }

    /**
     * Creates the topic if it is missing (one partition per broker, replicas staggered) and starts sending. Starts
     * whole or not at all: the topic's layout is read before the producer exists, so a topic just created and not
     * yet on every broker fails this call and the next one starts again (evidence run 9's first adaptive round: a
     * producer created before that failure made every later call return at once, and the canary never sent).
     */
    public synchronized void start(List<Integer> brokers)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (sender != null) {
            return;
        }
        kafka.ensure(brokers);
        refresh(false);
        kafka.openProducer();
        sender = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "leader-pacer-canary");
            t.setDaemon(true);
            return t;
        });
        long period = 1000L / SENDS_PER_SECOND;
        sender.scheduleAtFixedRate(this::sendOne, 0, period, TimeUnit.MILLISECONDS);
    }

    /** One record to every partition; one not sent (closed, or a full buffer while a broker stalls) waits a tick. */
    private void sendOne() {
        byte[] value = new byte[64];
        for (int partition : layout.keySet()) {
            long sentAt = clockMs.getAsLong();
            kafka.send(partition, value, () -> record(partition, clockMs.getAsLong(), clockMs.getAsLong() - sentAt));
        }
    }

    private void record(int partition, long atMs, long latencyMs) {
        synchronized (samples) {
            Deque<long[]> d = latencies.computeIfAbsent(partition, k -> new ArrayDeque<>());
            d.addLast(new long[] {atMs, latencyMs});
            while (!d.isEmpty() && d.peekFirst()[0] < atMs - 60_000) {
                d.removeFirst();
            }
        }
    }

    /**
     * Reads the topic's leaders and ISRs, and when the cluster is in sync and every partition of the topic has its full
     * ISR, keeps the last window's P99 as a steady one. Called once per pacing look.
     *
     * @param clusterInSync whether every broker is active and every replica of the cluster in its ISR at this look:
     *                      a window taken while a broker recovers is not steady, even once the canary's own
     *                      partitions are back in sync (a canary started during a recovery waits for its end)
     */
    public void refresh(boolean clusterInSync) throws InterruptedException, ExecutionException, TimeoutException {
        Map<Integer, TopicPartitionInfo> next = kafka.describe();
        boolean full = next.values().stream()
                .allMatch(p -> p.isr().size() == p.replicas().size());
        layout = next;
        if (full && clusterInSync) {
            double p99 = p99(next.keySet().stream().mapToInt(Integer::intValue).toArray());
            if (!Double.isNaN(p99)) {
                synchronized (samples) {
                    steady.addLast(p99);
                    while (steady.size() > STEADY_WINDOWS) {
                        steady.removeFirst();
                    }
                }
            }
        }
    }

    /**
     * The canary's P99 over the last {@link #WINDOW_MS} on the partitions where the broker is an in-sync follower,
     * over the median steady P99; empty without a steady reference or enough sends.
     */
    @Override
    public OptionalDouble apply(int broker) {
        double reference = steadyP99();
        if (Double.isNaN(reference) || reference <= 0) {
            return OptionalDouble.empty();
        }
        int[] partitions = layout.values().stream()
                .filter(p -> p.leader() != null
                        && p.leader().id() != broker
                        && p.isr().stream().map(Node::id).anyMatch(id -> id == broker))
                .mapToInt(TopicPartitionInfo::partition)
                .toArray();
        double now = p99(partitions);
        return Double.isNaN(now) ? OptionalDouble.empty() : OptionalDouble.of(now / reference);
    }

    /** The median of the steady windows' P99s, ms ({@code NaN} before the first). */
    double steadyP99() {
        synchronized (samples) {
            if (steady.isEmpty()) {
                return Double.NaN;
            }
            double[] v =
                    steady.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }
    }

    /** The P99 of the sends completed in the last window on these partitions, ms ({@code NaN}: too few). */
    private double p99(int[] partitions) {
        long from = clockMs.getAsLong() - WINDOW_MS;
        List<Long> v = new ArrayList<>();
        synchronized (samples) {
            for (int p : partitions) {
                for (long[] s : latencies.getOrDefault(p, new ArrayDeque<>())) {
                    if (s[0] >= from) {
                        v.add(s[1]);
                    }
                }
            }
        }
        if (v.size() < MIN_SAMPLES) {
            return Double.NaN;
        }
        long[] sorted = v.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
    }

    /**
     * Stops sending and closes the producer, waiting at most 5 s for its last sends. The producer is closed outside
     * this object's monitor: its I/O thread completes sends into {@link #record}, and close waits for that thread.
     */
    @Override
    public void close() {
        ScheduledExecutorService s;
        synchronized (this) {
            s = sender;
            sender = null;
        }
        if (s != null) {
            s.shutdownNow();
        }
        kafka.close();
    }
}
