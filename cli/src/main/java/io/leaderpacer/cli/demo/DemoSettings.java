package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything the demo's scenario is made of, in one value, so that it is printed before the run
 * and a shorter variant ({@code --quick}) differs only in sizes, not in shape.
 *
 * <p>The sizes are chosen so that the restarted broker's partitions rejoin their ISRs over tens of
 * seconds: the backlog written while it is down is skewed across partitions (the largest gets
 * about a hundred times the smallest), and its follower fetches are throttled, so small
 * partitions catch up first and large ones last, as after a real restart.
 *
 * @param brokers                number of brokers
 * @param partitions             partitions of the demo topic (replication factor 3), laid out so
 *                               that every broker is the preferred leader of the same number
 * @param restartedBroker        the broker that is restarted
 * @param topic                  the demo topic's name
 * @param recordBytes            size of every record's value
 * @param loadRecordsPerSecond   the steady load whose produce latency is measured
 * @param backlogBytes           data written while the broker is down, which it must fetch back
 * @param throttleBytesPerSecond the restarted broker's follower replication throttle
 * @param recoveryTimeout        give up waiting for a recovery after this long
 * @param waitForSync            the paced policy
 * @param immediate              Kafka's behaviour today, for comparison
 */
public record DemoSettings(
        int brokers,
        int partitions,
        int restartedBroker,
        String topic,
        int recordBytes,
        int loadRecordsPerSecond,
        long backlogBytes,
        long throttleBytesPerSecond,
        Duration recoveryTimeout,
        PacerConfig waitForSync,
        PacerConfig immediate) {

    private static final long MIB = 1024L * 1024L;

    public DemoSettings {
        if (brokers < 3) {
            throw new IllegalArgumentException("the demo needs at least 3 brokers for replication factor 3, got " + brokers);
        }
        if (partitions < brokers) {
            throw new IllegalArgumentException("partitions must be at least the broker count (" + brokers + "), got " + partitions);
        }
        if (restartedBroker < 0 || restartedBroker >= brokers) {
            throw new IllegalArgumentException("restarted broker must be in 0.." + (brokers - 1) + ", got " + restartedBroker);
        }
    }

    /** The full demo: 300 partitions, about 30 s of catch-up per restart. */
    public static DemoSettings standard() {
        return new DemoSettings(3, 300, 1, "pacer-demo", 512, 200, 48 * MIB, 2 * MIB, Duration.ofSeconds(150),
                paced(), immediateBaseline());
    }

    /** The same scenario with less data to catch up: about a third of the time. */
    public static DemoSettings quick() {
        return new DemoSettings(3, 300, 1, "pacer-demo", 512, 200, 16 * MIB, 2 * MIB, Duration.ofSeconds(90),
                paced(), immediateBaseline());
    }

    /** wait-for-sync with settings that show gating, then paced batches, within a minute. */
    static PacerConfig paced() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(ConfigKey.CHECK_INTERVAL_SECONDS.key(), "1");
        m.put(ConfigKey.ALGORITHM.key(), "wait-for-sync");
        m.put(ConfigKey.THRESHOLD_PERCENT.key(), "10");
        m.put(ConfigKey.MAX_PER_RUN.key(), "20");
        m.put(ConfigKey.THROTTLE_INTERVAL_MS.key(), "2000");
        return PacerConfig.fromMap(m);
    }

    /** Kafka's behaviour today (cap 1000, no throttle), checked as often as the paced policy. */
    static PacerConfig immediateBaseline() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(ConfigKey.CHECK_INTERVAL_SECONDS.key(), "1");
        m.put(ConfigKey.ALGORITHM.key(), "immediate");
        return PacerConfig.fromMap(m);
    }

    /** The same settings with other sizes for the catch-up (used by tests and by {@code --quick}). */
    public DemoSettings withBacklog(long newBacklogBytes, Duration newRecoveryTimeout) {
        return new DemoSettings(brokers, partitions, restartedBroker, topic, recordBytes, loadRecordsPerSecond,
                newBacklogBytes, throttleBytesPerSecond, newRecoveryTimeout, waitForSync, immediate);
    }

    /** The policy keys that differ from Kafka's defaults, as {@code k=v} pairs. */
    static String policyLine(PacerConfig config) {
        List<String> parts = new ArrayList<>();
        Map<String, String> defaults = PacerConfig.defaults().toMap();
        config.toMap().forEach((k, v) -> {
            if (!v.equals(defaults.get(k)) || k.equals(ConfigKey.ALGORITHM.key())) {
                parts.add(k + "=" + v);
            }
        });
        return String.join(" ", parts);
    }

    /** The settings as printed before the run. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "cluster     %d brokers + 1 KRaft controller, in this JVM (Kafka's own server code)", brokers));
        lines.add(String.format(Locale.ROOT, "topic       %s: %d partitions, replication factor 3, %d preferred per broker",
                topic, partitions, partitions / brokers));
        lines.add(String.format(Locale.ROOT, "load        %d records/s of %d B (acks=1), produce latency measured per send",
                loadRecordsPerSecond, recordBytes));
        lines.add(String.format(Locale.ROOT, "restart     broker %d: %d MiB written while it is down, skewed across partitions;"
                + " follower throttle %d MiB/s", restartedBroker, backlogBytes / MIB, throttleBytesPerSecond / MIB));
        lines.add("policy 1    " + policyLine(waitForSync));
        lines.add("policy 2    " + policyLine(immediate));
        return lines;
    }
}
