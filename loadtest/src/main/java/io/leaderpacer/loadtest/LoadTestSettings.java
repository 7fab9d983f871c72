package io.leaderpacer.loadtest;

import io.leaderpacer.cluster.ProcessKafkaCluster;
import io.leaderpacer.loadtest.LoadTestDefaults.Setting;
import io.leaderpacer.loadtest.load.BacklogWriter;
import io.leaderpacer.loadtest.steady.SteadyWindows;
import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.ShutdownMode;
import io.leaderpacer.report.MeasurementWindow;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import static io.leaderpacer.loadtest.SettingException.require;

/**
 * Everything a load test is made of, in one value that is printed before the run, so that a report always says what
 * produced it. Built with {@link #builder()}, whose defaults are {@code pacer loadtest}'s ({@link LoadTestDefaults}).
 *
 * <p>Why groups: a load test has twenty-odd settings; a call site names the group and the setting
 * ({@code settings.phases().window()}), and a caller sets only what differs from the defaults. A setting out of its
 * range is a {@link SettingException} naming the setting, which knows its option ({@link LoadTestDefaults.Setting}).
 *
 * @param cluster    the test's own cluster and the broker that restarts
 * @param topics     the load and catch-up topics
 * @param load       the steady produce load
 * @param backlog    what is written while the broker is down, and how it is stopped
 * @param phases     warm-up, steady phase, window and round limit
 * @param comparison the policies, their rounds and the agent's check interval
 * @param out        where the CSV files and the report go
 */
public record LoadTestSettings(
        Cluster cluster, Topics topics, Load load, Backlog backlog, Phases phases, Comparison comparison, Path out) {

    /** The load topic's name. */
    public static final String LOAD_TOPIC = "pacer-loadtest-load";
    /**
     * The catch-up topic's default name: recreated every round so that backlogs do not pile up. It sorts before the
     * load topic, and the agent elects in topic-name order, so in a capped ramp the partitions with producers come
     * back last.
     */
    public static final String CATCH_UP_TOPIC = "pacer-loadtest-catchup";
    /** What Kafka allows in a topic name. */
    private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    /** Replication factor of both topics (at most the broker count). */
    public static final int REPLICATION_FACTOR = 3;

    /**
     * @param brokers         brokers of the test's own cluster (ignored with an existing cluster)
     * @param restartedBroker the broker that is stopped and restarted
     * @param brokerHeap      each broker's heap
     * @param saturate        whether to cap the restarted broker's CPU (where the OS allows it)
     * @param cpuCapCores     the cap, in cores
     * @param serverSettings  settings added to every broker's {@code server.properties} of the test's own cluster, for
     *                        the whole run: those Kafka reads only at a broker's start
     */
    public record Cluster(
            int brokers,
            int restartedBroker,
            String brokerHeap,
            boolean saturate,
            double cpuCapCores,
            Map<String, String> serverSettings) {
        public Cluster {
            Objects.requireNonNull(brokerHeap, "brokerHeap");
            serverSettings = Collections.unmodifiableMap(new LinkedHashMap<>(serverSettings));
            require(
                    brokers >= REPLICATION_FACTOR,
                    Setting.BROKERS,
                    "must be at least " + REPLICATION_FACTOR + ", got " + brokers);
            require(restartedBroker >= 0, Setting.RESTARTED_BROKER, "must be a broker id, got " + restartedBroker);
            require(cpuCapCores > 0, Setting.CPU_CAP_CORES, "must be > 0 cores, got " + cpuCapCores);
        }
    }

    /**
     * @param loadPartitions    partitions of the load topic (the classified producers write here)
     * @param catchUpPartitions partitions of the catch-up topic (the backlog is written here, skewed)
     * @param catchUpTopic      the topic that takes the backlog; its name decides whether the partitions with
     *                          producers come back first or last in a capped ramp (the agent elects in name order)
     */
    public record Topics(int loadPartitions, int catchUpPartitions, String catchUpTopic) {
        public Topics {
            Objects.requireNonNull(catchUpTopic, "catchUpTopic");
            require(loadPartitions >= 1, Setting.LOAD_PARTITIONS, "must be at least 1, got " + loadPartitions);
            require(
                    catchUpPartitions >= 1,
                    Setting.CATCH_UP_PARTITIONS,
                    "must be at least 1, got " + catchUpPartitions);
            require(
                    TOPIC_NAME.matcher(catchUpTopic).matches()
                            && !catchUpTopic.equals(".")
                            && !catchUpTopic.equals(".."),
                    Setting.CATCH_UP_TOPIC,
                    "must be a Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -), got '" + catchUpTopic + "'");
            require(
                    !catchUpTopic.equals(LOAD_TOPIC),
                    Setting.CATCH_UP_TOPIC,
                    "must not be the load topic " + LOAD_TOPIC);
        }
    }

    /**
     * @param recordsPerSecond the steady load's rate
     * @param recordBytes      the steady load's record size
     */
    public record Load(int recordsPerSecond, int recordBytes) {
        public Load {
            require(recordsPerSecond >= 1, Setting.RECORDS_PER_SECOND, "must be at least 1, got " + recordsPerSecond);
            require(recordBytes >= 1, Setting.RECORD_BYTES, "must be at least 1, got " + recordBytes);
        }
    }

    /**
     * @param bytes    data written while the broker is down
     * @param sigma    log-normal σ of the backlog's spread over partitions
     * @param seed     draws the backlog's spread; printed so a run can be repeated
     * @param shutdown how the broker is stopped
     * @param downFor  the least time from the stop to the start: whether the broker comes back within its leaders'
     *                 {@code replica.lag.time.max.ms} (30 s by default) decides its first seconds (evidence run 22), so a
     *                 comparison controls it instead of leaving it to the backlog's writing time; 0: start as soon as
     *                 the backlog is written
     */
    public record Backlog(long bytes, double sigma, long seed, ShutdownMode shutdown, Duration downFor) {
        public Backlog {
            Objects.requireNonNull(shutdown, "shutdown");
            Objects.requireNonNull(downFor, "downFor");
            require(!downFor.isNegative(), Setting.DOWN_FOR, "must be >= 0, got " + downFor);
            require(bytes >= 1, Setting.BACKLOG_BYTES, "must be at least 1 byte, got " + bytes);
            require(sigma >= 0, Setting.BACKLOG_SIGMA, "must be >= 0, got " + sigma);
        }

        /**
         * Records per partition of one backlog of these settings, spread over {@code partitions}; {@code draw} tells
         * apart the backlogs of one run (each round's, each turn's), added to the seed so that each is drawn afresh
         * and a run can still be repeated.
         */
        public int[] recordsPerPartition(int partitions, long draw) {
            return BacklogWriter.recordsPerPartition(partitions, bytes, sigma, seed + draw);
        }
    }

    /**
     * @param warmup     load before the first round, thrown away: at least a minimum, then until steady, up to a limit
     * @param steady     each round's steady phase: its windows make the run's steady reference
     * @param window     the window after unfencing over which P99 is measured, at least: it stays open until a tail
     *                   after the broker leads again ({@code MeasurementWindow.RELEASE_TAIL_MS}) when that is later
     * @param roundLimit a round stops measuring after this long from unfencing, recovered or not
     * @param kipWindow  whether each round also measures KIP-1358's window, the ten minutes from unfencing (and so
     *                   lasts at least that long)
     */
    public record Phases(
            WarmUpSettings warmup, Duration steady, Duration window, Duration roundLimit, boolean kipWindow) {
        /** KIP-1358's window: the ten minutes from unfencing. */
        public static final Duration KIP_WINDOW = Duration.ofMinutes(10);

        /** Without KIP-1358's ten-minute window. */
        public Phases(WarmUpSettings warmup, Duration steady, Duration window, Duration roundLimit) {
            this(warmup, steady, window, roundLimit, false);
        }

        public Phases {
            Objects.requireNonNull(warmup, "warmup");
            require(!window.isNegative() && !window.isZero(), Setting.WINDOW, "must be > 0");
            require(
                    steady.compareTo(SteadyWindows.WINDOW) >= 0,
                    Setting.STEADY,
                    "must be at least "
                            + SteadyWindows.WINDOW.toSeconds() + " s (one window of the steady reference), got "
                            + steady.toSeconds() + " s");
            require(roundLimit.compareTo(window) >= 0, Setting.ROUND_LIMIT, "must be at least the window");
            require(
                    !kipWindow || roundLimit.compareTo(KIP_WINDOW) >= 0,
                    Setting.ROUND_LIMIT,
                    "must be at least 10 minutes with --kip-window, got " + roundLimit.toSeconds() + " s");
        }
    }

    /**
     * @param policies             the policies, run alternately
     * @param rounds               rounds per policy
     * @param checkIntervalSeconds the agent's check interval for every policy
     * @param rolling              whether a round restarts every broker in turn (a rolling restart, {@link
     *                             RollingRound}) instead of the one restarted broker ({@link RecoveryRound})
     */
    public record Comparison(List<NamedPolicy> policies, int rounds, long checkIntervalSeconds, boolean rolling) {
        /** Rounds that restart the one restarted broker. */
        public Comparison(List<NamedPolicy> policies, int rounds, long checkIntervalSeconds) {
            this(policies, rounds, checkIntervalSeconds, false);
        }

        public Comparison {
            policies = List.copyOf(policies);
            require(!policies.isEmpty(), Setting.POLICIES, "must name at least one policy");
            require(rounds >= 1, Setting.ROUNDS, "must be at least 1, got " + rounds);
            require(checkIntervalSeconds >= 1, Setting.CHECK_INTERVAL_SECONDS, "must be at least 1 s");
        }
    }

    public LoadTestSettings {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(backlog, "backlog");
        Objects.requireNonNull(phases, "phases");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(out, "out");
        require(
                !(comparison.rolling() && phases.kipWindow()),
                Setting.ROLLING,
                "measures the whole rolling restart, from its first stop to the last broker leading again:"
                        + " KIP-1358's ten minutes from one unfencing (--kip-window) do not apply to it");
    }

    /** A builder with {@code pacer loadtest}'s defaults. */
    public static LoadTestSettingsBuilder builder() {
        return new LoadTestSettingsBuilder();
    }

    /**
     * How many partitions the restarted broker is preferred for, known before the topics exist: 1/N of every topic's
     * partitions, {@code __consumer_offsets} included (as many as the clusters the load test starts have,
     * {@link ProcessKafkaCluster#OFFSETS_TOPIC_PARTITIONS}). It sizes {@code kip-example-scaled}'s cap; the one
     * estimate of it, for the load test and the demo alike.
     */
    public static int estimatedPreferred(int brokers, int loadPartitions, int catchUpPartitions) {
        return (loadPartitions + catchUpPartitions + ProcessKafkaCluster.OFFSETS_TOPIC_PARTITIONS)
                / Math.max(1, brokers);
    }

    /** The run order: round-robin over the policies, so that no policy always runs first or on a colder cluster. */
    public List<NamedPolicy> order() {
        List<NamedPolicy> order = new ArrayList<>();
        for (int r = 0; r < comparison.rounds(); r++) {
            order.addAll(comparison.policies());
        }
        return order;
    }

    /** The settings as printed before the run. */
    public List<String> describe(String clusterDescription, String saturation) {
        List<String> lines = new ArrayList<>();
        lines.add("cluster     " + clusterDescription);
        if (!cluster.serverSettings().isEmpty()) {
            lines.add("server      every broker's server.properties adds " + cluster.serverSettings());
        }
        lines.add(String.format(
                Locale.ROOT,
                "topics      %s: %d partitions, %s: %d partitions, replication factor %d",
                LOAD_TOPIC,
                topics.loadPartitions(),
                topics.catchUpTopic(),
                topics.catchUpPartitions(),
                REPLICATION_FACTOR));
        lines.add(String.format(
                Locale.ROOT,
                "load        %d records/s of %d B, acks=all, idempotent, request.timeout.ms=30000;"
                        + " a consumer group reads throughout",
                load.recordsPerSecond(),
                load.recordBytes()));
        lines.add(String.format(
                Locale.ROOT,
                "restart     %s (%s), %d MiB written while it is down (log-normal skew σ %.2f, seed %d)",
                comparison.rolling()
                        ? "every broker in turn, the next once the previous leads again and every replica is in sync,"
                                + " each"
                        : "broker " + cluster.restartedBroker(),
                backlog.shutdown().name().toLowerCase(Locale.ROOT),
                backlog.bytes() / (1024 * 1024),
                backlog.sigma(),
                backlog.seed()));
        if (!backlog.downFor().isZero()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "            started again no sooner than %.0f s after its stop",
                    backlog.downFor().toMillis() / 1000.0));
        }
        lines.add("saturation  " + saturation);
        lines.add(String.format(
                Locale.ROOT,
                "phases      warm-up %d-%d s until steady (thrown away), steady %d s, window %d s"
                        + " after unfencing (or to %d s after the broker leads again), at most %d s per round",
                phases.warmup().minimum().toSeconds(),
                phases.warmup().limit().toSeconds(),
                phases.steady().toSeconds(),
                phases.window().toSeconds(),
                MeasurementWindow.RELEASE_TAIL_MS / 1000,
                phases.roundLimit().toSeconds()));
        lines.add(String.format(Locale.ROOT, "rounds      %d per policy, alternating", comparison.rounds()));
        for (NamedPolicy p : comparison.policies()) {
            lines.add(String.format(Locale.ROOT, "policy      %-14s %s", p.name(), p.description()));
        }
        return lines;
    }
}
