package io.leaderpacer.agent.pacing;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Test support: how fast a broker fetches the partitions of a topic it is out of the ISR of, measured apart from the
 * agent: the growth of its replicas between two readings of its log directories, over the replicas out of the ISR at
 * both. A test compares it with the rate pacing says it allows.
 */
final class FetchMeter {

    private final Admin admin;
    private final int broker;
    private final String topic;
    private Map<TopicPartition, Long> lastSizes;
    private Set<Integer> lastOutOfSync;
    private long lastAtNanos;
    private final List<Double> rates = new ArrayList<>();

    FetchMeter(Admin admin, int broker, String topic) {
        this.admin = admin;
        this.broker = broker;
        this.topic = topic;
    }

    /**
     * Reads the broker's replica sizes and the topic's ISRs; from the second reading on, records the bytes per second
     * fetched into the replicas out of the ISR at both readings (none when every replica is in sync).
     *
     * @return the partitions of the topic whose ISR does not hold the broker
     */
    Set<Integer> sample() throws Exception {
        Set<Integer> outOfSync = new TreeSet<>();
        TopicDescription d = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(topic);
        for (TopicPartitionInfo p : d.partitions()) {
            if (p.isr().stream().noneMatch(n -> n.id() == broker)) {
                outOfSync.add(p.partition());
            }
        }
        Map<TopicPartition, Long> sizes = new HashMap<>();
        try {
            Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(broker))
                    .descriptions()
                    .get(broker)
                    .get(30, TimeUnit.SECONDS);
            dirs.values()
                    .forEach(dir -> dir.replicaInfos().forEach((tp, info) -> {
                        if (tp.topic().equals(topic)) {
                            sizes.merge(tp, info.size(), Long::sum);
                        }
                    }));
        } catch (Exception e) {
            // Starting, not answering yet: no reading this time.
            lastSizes = null;
            return outOfSync;
        }
        long now = System.nanoTime();
        if (lastSizes != null && now > lastAtNanos) {
            long grown = 0;
            boolean any = false;
            for (int p : outOfSync) {
                if (!lastOutOfSync.contains(p)) {
                    continue;
                }
                TopicPartition tp = new TopicPartition(topic, p);
                grown += Math.max(0, sizes.getOrDefault(tp, 0L) - lastSizes.getOrDefault(tp, 0L));
                any = true;
            }
            if (any) {
                rates.add(grown * 1e9 / (now - lastAtNanos));
            }
        }
        lastSizes = sizes;
        lastOutOfSync = outOfSync;
        lastAtNanos = now;
        return outOfSync;
    }

    /** The median of the rates recorded after the first {@code skip} (bytes per second); 0 when none. */
    double median(int skip) {
        List<Double> kept = new ArrayList<>(rates.subList(Math.min(skip, rates.size()), rates.size()));
        if (kept.isEmpty()) {
            return 0;
        }
        kept.sort(Double::compare);
        return kept.get(kept.size() / 2);
    }

    /** The broker's replica bytes of the topic at the last reading (-1 before one). */
    long lastTotal() {
        return lastSizes == null
                ? -1
                : lastSizes.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Every rate recorded, oldest first, for a failure's message. */
    List<Double> rates() {
        return List.copyOf(rates);
    }
}
