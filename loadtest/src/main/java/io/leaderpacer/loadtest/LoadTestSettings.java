package io.leaderpacer.loadtest;

import io.leaderpacer.cluster.ProcessKafkaCluster;
import io.leaderpacer.loadtest.steady.SteadyWindows;
import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.ShutdownMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Everything a load test is made of, in one value that is printed before the run, so that a report always says what
 * produced it.
 *
 * @param brokers            brokers of the test's own cluster (ignored with an existing cluster)
 * @param restartedBroker    the broker that is stopped and restarted
 * @param loadPartitions     partitions of the load topic (the classified producers write here)
 * @param catchUpPartitions  partitions of the catch-up topic (the backlog is written here, skewed)
 * @param recordsPerSecond   the steady load's rate
 * @param recordBytes        the steady load's record size
 * @param backlogBytes       data written while the broker is down
 * @param backlogSigma       log-normal σ of the backlog's spread over partitions
 * @param seed               draws the backlog's spread; printed so a run can be repeated
 * @param shutdown           how the broker is stopped
 * @param warmup             load before the first round, thrown away: at least a minimum, then until steady, up to a limit
 * @param steady             each round's steady phase: its P99 is the reference
 * @param window             the window after unfencing over which P99 is measured
 * @param roundLimit         a round stops measuring after this long from unfencing, recovered or not
 * @param rounds             rounds per policy
 * @param policies           the policies, run alternately
 * @param saturate           whether to cap the restarted broker's CPU (where the OS allows it)
 * @param cpuCapCores        the cap, in cores
 * @param brokerHeap         each broker's heap
 * @param checkIntervalSeconds the agent's check interval for every policy
 * @param catchUpTopic       the topic that takes the backlog; its name decides whether the partitions with
 *                           producers come back first or last in a capped ramp (the agent elects in name order)
 * @param out                where the CSV files and the report go
 */
public record LoadTestSettings(
        int brokers,
        int restartedBroker,
        int loadPartitions,
        int catchUpPartitions,
        int recordsPerSecond,
        int recordBytes,
        long backlogBytes,
        double backlogSigma,
        long seed,
        ShutdownMode shutdown,
        WarmUpSettings warmup,
        Duration steady,
        Duration window,
        Duration roundLimit,
        int rounds,
        List<NamedPolicy> policies,
        boolean saturate,
        double cpuCapCores,
        String brokerHeap,
        long checkIntervalSeconds,
        String catchUpTopic,
        Path out) {

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

    public LoadTestSettings {
        Objects.requireNonNull(shutdown, "shutdown");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(catchUpTopic, "catchUpTopic");
        require(TOPIC_NAME.matcher(catchUpTopic).matches() && !catchUpTopic.equals(".") && !catchUpTopic.equals(".."),
                "--catch-up-topic must be a Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -), got '" + catchUpTopic + "'");
        require(!catchUpTopic.equals(LOAD_TOPIC), "--catch-up-topic must not be the load topic " + LOAD_TOPIC);
        policies = List.copyOf(policies);
        require(brokers >= REPLICATION_FACTOR, "--brokers must be at least " + REPLICATION_FACTOR + ", got " + brokers);
        require(restartedBroker >= 0, "--restart-broker must be a broker id, got " + restartedBroker);
        require(loadPartitions >= 1, "--partitions must be at least 1, got " + loadPartitions);
        require(catchUpPartitions >= 1, "--catch-up-partitions must be at least 1, got " + catchUpPartitions);
        require(recordsPerSecond >= 1, "--rate must be at least 1, got " + recordsPerSecond);
        require(recordBytes >= 1, "--record-size must be at least 1, got " + recordBytes);
        require(backlogBytes >= 1, "--backlog must be at least 1 byte, got " + backlogBytes);
        require(backlogSigma >= 0, "--backlog-skew must be >= 0, got " + backlogSigma);
        require(rounds >= 1, "--rounds must be at least 1, got " + rounds);
        require(!policies.isEmpty(), "at least one --policy is needed");
        require(cpuCapCores > 0, "--cpu-cap must be > 0 cores, got " + cpuCapCores);
        require(!window.isNegative() && !window.isZero(), "--window must be > 0");
        require(steady.compareTo(SteadyWindows.WINDOW) >= 0, "--steady must be at least "
                + SteadyWindows.WINDOW.toSeconds() + " s (one window of the steady reference), got " + steady.toSeconds() + " s");
        require(roundLimit.compareTo(window) >= 0, "--round-limit must be at least the window");
        require(checkIntervalSeconds >= 1, "--check-interval must be at least 1 s");
    }

    /**
     * How many partitions the restarted broker is preferred for, known before the topics exist: 1/N of every topic's
     * partitions, {@code __consumer_offsets} included (as many as the clusters the load test starts have,
     * {@link ProcessKafkaCluster#OFFSETS_TOPIC_PARTITIONS}). It sizes {@code kip-example-scaled}'s cap; the one
     * estimate of it, for the load test and the demo alike.
     */
    public static int estimatedPreferred(int brokers, int loadPartitions, int catchUpPartitions) {
        return (loadPartitions + catchUpPartitions + ProcessKafkaCluster.OFFSETS_TOPIC_PARTITIONS) / Math.max(1, brokers);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** The run order: round-robin over the policies, so that no policy always runs first or on a colder cluster. */
    public List<NamedPolicy> order() {
        List<NamedPolicy> order = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            order.addAll(policies);
        }
        return order;
    }

    /** The settings as printed before the run. */
    public List<String> describe(String clusterDescription, String saturation) {
        List<String> lines = new ArrayList<>();
        lines.add("cluster     " + clusterDescription);
        lines.add(String.format(Locale.ROOT, "topics      %s: %d partitions, %s: %d partitions, replication factor %d",
                LOAD_TOPIC, loadPartitions, catchUpTopic, catchUpPartitions, REPLICATION_FACTOR));
        lines.add(String.format(Locale.ROOT, "load        %d records/s of %d B, acks=all, idempotent, request.timeout.ms=30000;"
                + " a consumer group reads throughout", recordsPerSecond, recordBytes));
        lines.add(String.format(Locale.ROOT, "restart     broker %d (%s), %d MiB written while it is down (log-normal skew σ %.2f, seed %d)",
                restartedBroker, shutdown.name().toLowerCase(Locale.ROOT), backlogBytes / (1024 * 1024), backlogSigma, seed));
        lines.add("saturation  " + saturation);
        lines.add(String.format(Locale.ROOT, "phases      warm-up %d-%d s until steady (thrown away), steady %d s, window %d s"
                + " after unfencing, at most %d s per round", warmup.minimum().toSeconds(), warmup.limit().toSeconds(),
                steady.toSeconds(), window.toSeconds(), roundLimit.toSeconds()));
        lines.add(String.format(Locale.ROOT, "rounds      %d per policy, alternating", rounds));
        for (NamedPolicy p : policies) {
            lines.add(String.format(Locale.ROOT, "policy      %-14s %s", p.name(), p.description()));
        }
        return lines;
    }
}
