package io.leaderpacer.loadtest.probe;

import io.leaderpacer.cluster.cpu.CpuQuota;
import io.leaderpacer.loadtest.TestTopics;
import io.leaderpacer.loadtest.load.BacklogWriter;
import io.leaderpacer.loadtest.testbed.LocalTarget;
import io.leaderpacer.loadtest.testbed.Saturation;
import io.leaderpacer.loadtest.testbed.ShutdownMode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the probe's cases one after the other on one cluster: each on a topic of its own (so that no config of an
 * earlier case can linger on it), from a cluster cleared of every throttle and checked to be clear.
 */
public final class ThrottleProbe {

    /** How often the restarted broker is looked at. */
    private static final long LOOK_MS = 500;
    /** A catch-up longer than this is cut off and reported as not finished. */
    private static final Duration CATCH_UP_LIMIT = Duration.ofMinutes(6);

    private final LocalTarget cluster;
    private final Admin admin;
    private final int restarted;
    private final ProbeSettings settings;
    private final Consumer<String> printer;
    private final ProbeThrottles throttles;
    private final TestTopics topics;
    private final List<String> topicNames = new ArrayList<>();

    public ThrottleProbe(LocalTarget cluster, Admin admin, ProbeSettings settings, Consumer<String> printer) {
        this.cluster = cluster;
        this.admin = admin;
        this.restarted = settings.restartedBroker();
        this.settings = settings;
        this.printer = printer;
        this.throttles = new ProbeThrottles(admin);
        this.topics = new TestTopics(admin, cluster.brokerIds(), restarted);
    }

    /** Runs every case; returns one result per restart. */
    public List<CatchUpResult> run(List<ThrottleCase> cases) throws Exception {
        List<CatchUpResult> out = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            ThrottleCase c = cases.get(i);
            String topic = String.format(Locale.ROOT, "probe-%02d-%s", i + 1, c.name());
            printer.accept("case " + c.name() + ": "
                    + c.throttle().map(ThrottleSetup::describe).orElse("no throttle")
                    + c.cpuCap()
                            .map(cap -> ", broker capped at " + cap + " core")
                            .orElse(", no CPU cap")
                    + (c.removal() == ThrottleCase.Removal.NONE ? "" : ", then removal: " + c.removal()));
            clear();
            topics.create(topic, settings.partitions(), Map.of());
            topicNames.add(topic);
            CatchUpResult first =
                    restartUnder(c, topic, c.throttle().isPresent() ? "throttled" : "unthrottled", c.throttle());
            out.add(print(first));
            if (c.removal() != ThrottleCase.Removal.NONE) {
                remove(c, topic);
                out.add(print(restartUnder(c, topic, "after removal " + c.removal(), Optional.empty())));
            }
            topics.delete(topic);
            topicNames.remove(topic);
        }
        clear();
        return out;
    }

    /** Removes the case's throttle as its removal names; the second restart then shows whether it took. */
    private void remove(ThrottleCase c, String topic) throws Exception {
        ThrottleSetup t = c.throttle().orElseThrow();
        switch (c.removal()) {
            case LISTS -> throttles.deleteList(t, topic);
            case RATE -> throttles.deleteRate(t, restarted, cluster.brokerIds());
            case BOTH -> {
                throttles.deleteList(t, topic);
                throttles.deleteRate(t, restarted, cluster.brokerIds());
            }
            case BOTH_SAME_TOPIC_RECREATED -> {
                throttles.deleteList(t, topic);
                throttles.deleteRate(t, restarted, cluster.brokerIds());
                topics.delete(topic);
                topics.create(topic, settings.partitions(), Map.of());
            }
            case NONE -> {}
        }
        printer.accept("  removed (" + c.removal() + "); in force now: " + describeInForce());
    }

    private CatchUpResult restartUnder(ThrottleCase c, String topic, String phase, Optional<ThrottleSetup> throttle)
            throws Exception {
        String error = "";
        if (throttle.isPresent() && throttle.get().when() == ThrottleSetup.When.BROKER_UP) {
            error = set(throttle.get(), topic);
        }
        long hostedBefore = Math.max(0, hostedBytes(topic));
        cluster.stopBroker(restarted, ShutdownMode.KILL);
        awaitFenced();
        if (throttle.isPresent() && throttle.get().when() == ThrottleSetup.When.BROKER_DOWN) {
            error = set(throttle.get(), topic);
        }
        int[] records = BacklogWriter.recordsPerPartition(settings.partitions(), settings.backlogBytes(), 0, 1);
        BacklogWriter.write(cluster.clientProperties(), topic, records, Duration.ofMinutes(5));
        // What it must fetch: the leaders' bytes beyond what it held when it was killed.
        long backlog = leaderBytes(topic) - hostedBefore;
        List<String> inForce = throttles.inForce(
                cluster.brokerIds().stream().filter(b -> b != restarted).toList(), List.of(topic));
        printer.accept(String.format(
                Locale.ROOT,
                "  %s: %.0f MiB written while broker %d is down; in force: %s",
                phase,
                backlog / 1048576.0,
                restarted,
                inForce.isEmpty() ? "nothing" : String.join("; ", inForce)));
        long start = System.nanoTime();
        cluster.startBroker(restarted);
        Optional<CpuQuota.Limit> cap = Optional.empty();
        try {
            cluster.awaitRegistered(restarted);
            if (c.cpuCap().isPresent()) {
                cap = Saturation.of(c.cpuCap().get())
                        .apply(cluster.pid(restarted).orElseThrow());
            }
            return watch(
                    c,
                    phase,
                    topic,
                    new CatchUpResult.Backlog(hostedBefore, backlog),
                    start,
                    throttle,
                    new CatchUpResult.Throttle(inForce, error));
        } finally {
            cap.ifPresent(CpuQuota.Limit::remove);
        }
    }

    /** Sets a throttle; what failed (e.g. a per-broker config of a broker that is down) is returned, not thrown. */
    private String set(ThrottleSetup t, String topic) {
        try {
            throttles.setRate(t, restarted, cluster.brokerIds());
            throttles.setList(t, topic, settings.partitions(), restarted, cluster.brokerIds());
            return "";
        } catch (Exception e) {
            printer.accept("  setting the throttle failed: " + e);
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private CatchUpResult watch(
            ThrottleCase c,
            String phase,
            String topic,
            CatchUpResult.Backlog backlog,
            long startNanos,
            Optional<ThrottleSetup> setup,
            CatchUpResult.Throttle throttle)
            throws Exception {
        List<CatchUpSample> samples = new ArrayList<>();
        long unfencedAt = -1;
        OptionalLong allIn = OptionalLong.empty();
        long nextPrint = 0;
        long rate = setup.map(ThrottleSetup::bytesPerSecond).orElse(-1L);
        boolean steps = c.stepMs() > 0 && setup.isPresent();
        long nextStepAt = Long.MAX_VALUE;
        while (true) {
            long at = (System.nanoTime() - startNanos) / 1_000_000;
            if (unfencedAt < 0 && unfenced()) {
                unfencedAt = at;
                nextStepAt = steps ? at + c.stepMs() : Long.MAX_VALUE;
            }
            int inIsr = inIsr(topic);
            long hosted = hostedBytes(topic);
            samples.add(new CatchUpSample(at, hosted, inIsr, setup.isEmpty() ? -1 : allowed(setup.get(), rate)));
            if (at >= nextStepAt) {
                rate = step(setup.get(), rate);
                nextStepAt += c.stepMs();
            }
            if (at >= nextPrint) {
                printer.accept(String.format(
                        Locale.ROOT,
                        "  +%5.1f s  %s, fetched %s MiB of %.0f, in ISR %d/%d",
                        at / 1000.0,
                        unfencedAt < 0 ? "fenced" : "unfenced",
                        hosted < 0
                                ? "?"
                                : String.format(Locale.ROOT, "%.0f", (hosted - backlog.heldBytes()) / 1048576.0),
                        backlog.fetchBytes() / 1048576.0,
                        inIsr,
                        settings.partitions()));
                nextPrint += 5000;
            }
            if (inIsr == settings.partitions() && unfencedAt >= 0) {
                allIn = OptionalLong.of(at);
                break;
            }
            if (at > CATCH_UP_LIMIT.toMillis()) {
                break;
            }
            Thread.sleep(LOOK_MS);
        }
        return new CatchUpResult(
                c.name(), phase, backlog, new CatchUpResult.Times(unfencedAt, allIn), samples, throttle);
    }

    /**
     * What a rate lets the restarted broker fetch in all: a follower-side rate once; a leader-side rate once per leader
     * (every other broker leads some of the topic's partitions, and each enforces the rate on its own sends).
     */
    private long allowed(ThrottleSetup setup, long rate) {
        return setup.side() == ThrottleSetup.Side.FOLLOWER
                ? rate
                : rate * (cluster.brokerIds().size() - 1);
    }

    /**
     * Steps a stepped case's rate: to half the case's rate from its full rate, else back to it. Returns the rate now
     * in force (the one before, where setting it failed: printed, and the catch-up goes on).
     */
    private long step(ThrottleSetup setup, long rate) {
        long next = rate == setup.bytesPerSecond() ? setup.bytesPerSecond() / 2 : setup.bytesPerSecond();
        try {
            throttles.setRate(
                    new ThrottleSetup(setup.side(), setup.scope(), setup.lists(), setup.when(), next),
                    restarted,
                    cluster.brokerIds());
            return next;
        } catch (Exception e) {
            printer.accept("  stepping the rate to " + next + " B/s failed: " + e);
            return rate;
        }
    }

    private CatchUpResult print(CatchUpResult r) {
        printer.accept(String.format(
                Locale.ROOT,
                "  => %s: all in ISR %s s after the start; effective %.1f MiB/s," + " observed %.1f MiB/s",
                r.phase(),
                r.times().allInIsrAtMs().isPresent()
                        ? String.format(
                                Locale.ROOT, "%.1f", r.times().allInIsrAtMs().getAsLong() / 1000.0)
                        : "not within limit",
                r.effectiveMiBps(),
                r.observedMiBps()));
        return r;
    }

    private void clear() throws Exception {
        throttles.clearAll(cluster.brokerIds(), topicNames);
        List<String> left = throttles.inForce(cluster.brokerIds(), topicNames);
        if (!left.isEmpty()) {
            throw new IllegalStateException("throttle configs still set after clearing them: " + left);
        }
    }

    private String describeInForce() throws Exception {
        List<String> left = throttles.inForce(
                cluster.brokerIds().stream().filter(b -> b != restarted).toList(), topicNames);
        return left.isEmpty() ? "nothing" : String.join("; ", left);
    }

    private void awaitFenced() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (unfenced()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("broker " + restarted + " still unfenced 60 s after its kill");
            }
            Thread.sleep(100);
        }
    }

    /** Whether the cluster lists the broker (KRaft's describeCluster lists unfenced brokers only). */
    private boolean unfenced() throws Exception {
        for (Node n : admin.describeCluster().nodes().get(10, TimeUnit.SECONDS)) {
            if (n.id() == restarted) {
                return true;
            }
        }
        return false;
    }

    private int inIsr(String topic) throws Exception {
        TopicDescription d = admin.describeTopics(Set.of(topic))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(topic);
        return (int) d.partitions().stream()
                .filter(p -> p.isr().stream().anyMatch(n -> n.id() == restarted))
                .count();
    }

    /** The topic's bytes on the restarted broker, -1 when it does not answer (yet). */
    private long hostedBytes(String topic) {
        try {
            return topicBytes(
                    admin.describeLogDirs(List.of(restarted))
                            .allDescriptions()
                            .get(2, TimeUnit.SECONDS)
                            .get(restarted),
                    topic);
        } catch (Exception e) {
            return -1;
        }
    }

    /** The topic's bytes on its leaders: the largest replica of each partition over the brokers that are up. */
    private long leaderBytes(String topic) throws Exception {
        List<Integer> up =
                cluster.brokerIds().stream().filter(b -> b != restarted).toList();
        Map<Integer, Map<String, LogDirDescription>> dirs =
                admin.describeLogDirs(up).allDescriptions().get(10, TimeUnit.SECONDS);
        long total = 0;
        for (int p = 0; p < settings.partitions(); p++) {
            long largest = 0;
            for (Map<String, LogDirDescription> byDir : dirs.values()) {
                for (LogDirDescription d : byDir.values()) {
                    ReplicaInfo info = d.replicaInfos().get(new TopicPartition(topic, p));
                    if (info != null) {
                        largest = Math.max(largest, info.size());
                    }
                }
            }
            total += largest;
        }
        return total;
    }

    private static long topicBytes(Map<String, LogDirDescription> byDir, String topic) {
        long total = 0;
        for (LogDirDescription d : byDir.values()) {
            for (var e : d.replicaInfos().entrySet()) {
                if (e.getKey().topic().equals(topic)) {
                    total += e.getValue().size();
                }
            }
        }
        return total;
    }
}
