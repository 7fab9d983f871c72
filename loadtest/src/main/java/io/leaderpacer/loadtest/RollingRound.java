package io.leaderpacer.loadtest;

import io.leaderpacer.cluster.cpu.CpuQuota;
import io.leaderpacer.loadtest.load.BacklogWriter;
import io.leaderpacer.loadtest.load.LatencyBook;
import io.leaderpacer.loadtest.load.Phase;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.observe.BrokerStatus;
import io.leaderpacer.loadtest.observe.PacingLog;
import io.leaderpacer.loadtest.observe.PacingSample;
import io.leaderpacer.loadtest.observe.ThreadCpuSampler;
import io.leaderpacer.loadtest.result.RollingResult;
import io.leaderpacer.loadtest.testbed.LocalTarget;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * A rolling restart under one policy, the case KIP-1358 opens with: after a steady phase (the reference), every broker
 * is stopped and started again in turn, and the next one is stopped only once the previous one leads 99 % of its
 * preferred partitions again and every replica of every partition is back in its ISR, as operators' scripts wait (a
 * script that waited for leadership alone would stop a broker while another still catches up, and take partitions
 * under their minimum ISR). Each turn is a recovery round's stop, backlog and restart (the restarted broker capped as
 * in {@link RecoveryRound}), without its windows: the producers' sends are pooled from the first stop to the last
 * turn's end.
 */
final class RollingRound {

    private static final long SETTLE_MS = 5000;
    private static final long LOOK_MS = 500;
    private static final long PROGRESS_MS = 30_000;
    private static final Duration BROKER_SETTINGS_LIMIT = Duration.ofSeconds(30);

    private final LoadTestSettings settings;
    private final RecoveryRound.RoundContext context;
    /**
     * Whether a turn has written a backlog into the catch-up topic: the next turn then deletes and creates it again,
     * before its stop. Why per turn, not per round: every broker keeps a turn's backlog after it (replication factor 3
     * on 3 brokers), so three turns would hold three backlogs on every broker, 18 GiB at the defaults, in
     * {@code /dev/shm} where the test's cluster keeps its data (evidence run 32's second attempt was killed by the
     * kernel's OOM killer at 21 GiB); recreated, at most two are held (a deleted topic's files stay until Kafka's
     * {@code file.delete.delay.ms}, 60 s).
     */
    private boolean catchUpTopicUsed;

    RollingRound(LoadTestSettings settings, RecoveryRound.RoundContext context) {
        this.settings = settings;
        this.context = context;
    }

    RollingResult run(NamedPolicy policy, int round) throws Exception {
        String tag = String.format(
                Locale.ROOT,
                "[%s %d/%d rolling]",
                policy.name(),
                round,
                settings.comparison().rounds());
        List<Integer> brokers = context.target().brokerIds();
        Map<Integer, PacingLog> pacing = new TreeMap<>();
        brokers.forEach(b -> pacing.put(b, new PacingLog(b, context.testClockMs())));
        Histogram steady;
        List<Turn> turns = new ArrayList<>();
        long first;
        long ended;
        RoundBrokerSettings applied =
                RoundBrokerSettings.apply(context.admin(), policy.brokerSettings(), brokers, BROKER_SETTINGS_LIMIT);
        context.open().push(applied);
        try (AgentRunLoop agent = AgentRunLoop.forPolicy(policy, context.admin(), context.target(), a -> {
            pacing.values().forEach(a::pacingListener);
            return a;
        })) {
            context.open().push(agent);
            try {
                agent.start();
                Thread.sleep(SETTLE_MS);
                LatencyBook steadyBook = new LatencyBook();
                context.load().recordInto(steadyBook, Phase.STEADY);
                context.printer()
                        .accept(tag + " steady phase, "
                                + settings.phases().steady().toSeconds() + " s");
                Thread.sleep(settings.phases().steady().toMillis());
                steady = steadyBook.histogram(Phase.STEADY, View.ALL);
                first = context.testClockMs().getAsLong();
                LongSupplier now = () -> context.testClockMs().getAsLong() - first;
                for (int b : brokers) {
                    turns.add(turn(tag, policy, round, b, now));
                    catchUpTopicUsed = true;
                }
                ended = now.getAsLong();
            } finally {
                context.load().stopRecording();
                context.load().awaitInFlight();
                context.open().remove(agent);
            }
        } finally {
            if (context.open().remove(applied)) {
                applied.close();
            }
        }
        // The agent is closed: it has put back what it set, which the reset checks.
        ClusterReset.afterRound(context.admin(), context.topics(), brokers, tag, context.printer());
        return new RollingResult(policy.name(), round, steady, legs(turns, ended, pacing, first));
    }

    /**
     * What a turn kept while it ran. Its book goes on taking sends until the next turn's stop (the last: until the
     * round's end), and is read only once the round's sends in flight completed, so that every send from the first
     * stop to the end is in exactly one turn.
     */
    private record Turn(
            int broker,
            long stoppedAt,
            long unfencedAt,
            TurnEnd end,
            LatencyBook book,
            List<ThreadCpuSampler.Sample> threads) {}

    /**
     * The turns as results: each with its sends and pacing's looks from its stop to the next turn's stop (the last
     * turn's: to {@code ended}, the round's end).
     */
    private static List<RollingResult.Leg> legs(
            List<Turn> turns, long ended, Map<Integer, PacingLog> pacing, long first) {
        List<RollingResult.Leg> legs = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) {
            Turn t = turns.get(i);
            long from = t.stoppedAt();
            long to = i + 1 < turns.size() ? turns.get(i + 1).stoppedAt() : ended;
            List<PacingSample> looks = pacing.get(t.broker()).samples().stream()
                    .map(p -> new PacingSample(
                            p.atMs() - first, p.rateBytes(), p.bytesBehind(), p.reason(), p.problem(), p.changes()))
                    .filter(p -> p.atMs() >= from && p.atMs() < to)
                    .toList();
            legs.add(new RollingResult.Leg(
                    t.broker(),
                    t.stoppedAt(),
                    t.unfencedAt(),
                    t.end().leadsAt(),
                    t.end().inSyncAt(),
                    to,
                    merged(t.book()),
                    errors(t.book()),
                    new RollingResult.Trace(looks, t.threads())));
        }
        return legs;
    }

    /** One broker's turn: stopped, its backlog written, started again (capped) and waited for. */
    private Turn turn(String tag, NamedPolicy policy, int round, int b, LongSupplier now) throws Exception {
        if (catchUpTopicUsed) {
            context.topics().delete(settings.topics().catchUpTopic());
            context.topics()
                    .create(settings.topics().catchUpTopic(), settings.topics().catchUpPartitions(), Map.of());
        }
        LatencyBook book = new LatencyBook();
        context.load().recordInto(book, Phase.DOWN);
        long stoppedAt = now.getAsLong();
        context.printer()
                .accept(String.format(
                        Locale.ROOT,
                        "%s +%5.1f s  stopping broker %d (%s)",
                        tag,
                        stoppedAt / 1000.0,
                        b,
                        settings.backlog().shutdown().name().toLowerCase(Locale.ROOT)));
        context.target().stopBroker(b, settings.backlog().shutdown());
        BrokerStatus.awaitFenced(context.admin(), b);
        int[] backlog =
                settings.backlog().recordsPerPartition(settings.topics().catchUpPartitions(), 1000L * round + b);
        BacklogWriter.write(
                context.target().clientProperties(), settings.topics().catchUpTopic(), backlog, Duration.ofMinutes(10));
        long left = settings.backlog().downFor().toMillis() - (now.getAsLong() - stoppedAt);
        if (left > 0) {
            Thread.sleep(left);
        }
        context.target().startBroker(b, policy.restartedSettings());
        Optional<CpuQuota.Limit> cap = cap(b);
        OptionalLong pid = context.target().pid(b);
        Optional<ThreadCpuSampler> threads = pid.isPresent()
                ? Optional.of(new ThreadCpuSampler(
                        pid.getAsLong(), context.saturation().sparesCompiler() ? cap : Optional.empty(), now))
                : Optional.empty();
        try {
            BrokerStatus.awaitUnfenced(context.admin(), b);
            long unfencedAt = now.getAsLong();
            context.load().recordInto(book, Phase.WINDOW);
            context.printer()
                    .accept(String.format(Locale.ROOT, "%s +%5.1f s  broker %d unfenced", tag, unfencedAt / 1000.0, b));
            TurnEnd end = awaitLedInSync(tag, b, unfencedAt, now);
            return new Turn(
                    b,
                    stoppedAt,
                    unfencedAt,
                    end,
                    book,
                    threads.map(ThreadCpuSampler::samples).orElse(List.of()));
        } finally {
            threads.ifPresent(ThreadCpuSampler::close);
            cap.ifPresent(CpuQuota.Limit::remove);
        }
    }

    /** When a turn's broker led again and every replica was in sync. */
    private record TurnEnd(OptionalLong leadsAt, OptionalLong inSyncAt) {}

    /**
     * Looks every {@link #LOOK_MS} until the broker leads 99 % of its preferred partitions again and every replica is in
     * sync, printing a progress line every {@link #PROGRESS_MS}; fails, naming what is missing, at the round's limit.
     */
    private TurnEnd awaitLedInSync(String tag, int b, long unfencedAt, LongSupplier now) throws InterruptedException {
        OptionalLong leadsAt = OptionalLong.empty();
        OptionalLong inSyncAt = OptionalLong.empty();
        long limit = unfencedAt + settings.phases().roundLimit().toMillis();
        long nextProgress = unfencedAt + PROGRESS_MS;
        Optional<Look> last = Optional.empty();
        while ((leadsAt.isEmpty() || inSyncAt.isEmpty()) && now.getAsLong() < limit) {
            Thread.sleep(LOOK_MS);
            Optional<Look> look = look(b);
            last = look.isPresent() ? look : last;
            long t = now.getAsLong();
            if (look.isPresent() && leadsAt.isEmpty() && look.get().leads()) {
                leadsAt = OptionalLong.of(t);
                context.printer()
                        .accept(String.format(
                                Locale.ROOT,
                                "%s +%5.1f s  broker %d leads again, %.1f s after unfencing",
                                tag,
                                t / 1000.0,
                                b,
                                (t - unfencedAt) / 1000.0));
            }
            if (look.isPresent() && inSyncAt.isEmpty() && look.get().shortOfFullIsr() == 0) {
                inSyncAt = OptionalLong.of(t);
            }
            if (t >= nextProgress) {
                context.printer()
                        .accept(String.format(
                                Locale.ROOT, "%s +%5.1f s  broker %d: %s", tag, t / 1000.0, b, describe(last)));
                nextProgress += PROGRESS_MS;
            }
        }
        if (leadsAt.isEmpty() || inSyncAt.isEmpty()) {
            throw new IllegalStateException("broker " + b + " did not lead again with every replica in sync within "
                    + settings.phases().roundLimit().toSeconds() + " s of its unfencing (--round-limit; at the"
                    + " last look: " + describe(last) + "): the rolling restart stops rather than take down the"
                    + " next broker");
        }
        return new TurnEnd(leadsAt, inSyncAt);
    }

    /** The restarted broker's CPU cap, as a recovery round sets it (none on a cluster that is not the test's own). */
    private Optional<CpuQuota.Limit> cap(int b) {
        if (context.target() instanceof LocalTarget local) {
            local.awaitRegistered(b);
            OptionalLong pid = context.target().pid(b);
            if (pid.isPresent()) {
                return context.saturation().apply(pid.getAsLong());
            }
        }
        return Optional.empty();
    }

    /** What one look at every topic saw: the broker's preferred partitions, those it leads, partitions short of an ISR. */
    private record Look(long preferred, long led, long shortOfFullIsr) {
        boolean leads() {
            return preferred > 0 && led * 100 >= 99 * preferred;
        }
    }

    private static String describe(Optional<Look> look) {
        return look.map(l -> String.format(
                        Locale.ROOT,
                        "leads %d/%d preferred partitions, %d partition(s) short of a full ISR",
                        l.led(),
                        l.preferred(),
                        l.shortOfFullIsr()))
                .orElse("no answer from the cluster yet");
    }

    private Optional<Look> look(int b) throws InterruptedException {
        try {
            Set<String> names = context.admin()
                    .listTopics(new ListTopicsOptions().listInternal(true))
                    .names()
                    .get(10, TimeUnit.SECONDS);
            Collection<TopicDescription> topics = context.admin()
                    .describeTopics(names)
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .values();
            long preferred = 0;
            long led = 0;
            long shortOfIsr = 0;
            for (TopicDescription t : topics) {
                for (TopicPartitionInfo p : t.partitions()) {
                    shortOfIsr += p.isr().size() < p.replicas().size() ? 1 : 0;
                    if (!p.replicas().isEmpty() && p.replicas().get(0).id() == b) {
                        preferred++;
                        led += p.leader() != null && p.leader().id() == b ? 1 : 0;
                    }
                }
            }
            return Optional.of(new Look(preferred, led, shortOfIsr));
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty(); // a broker restarting: look again
        }
    }

    private static Histogram merged(LatencyBook book) {
        Histogram h = book.histogram(Phase.DOWN, View.ALL);
        h.add(book.histogram(Phase.WINDOW, View.ALL));
        return h;
    }

    private static Map<String, Long> errors(LatencyBook book) {
        Map<String, Long> out = new TreeMap<>(book.errors(Phase.DOWN, View.ALL));
        book.errors(Phase.WINDOW, View.ALL).forEach((k, v) -> out.merge(k, v, Long::sum));
        return out;
    }
}
