package io.leaderpacer.cli.demo;

import io.leaderpacer.embedded.EmbeddedKafkaException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The demo topic with an explicit replica layout, so that the scenario is the same on every run:
 * every broker is the preferred leader of the same number of partitions, and when one broker
 * stops, its leadership fails over evenly to the others.
 */
final class DemoTopic {

    private DemoTopic() {
    }

    /**
     * Replica lists by partition: the preferred replica cycles through the brokers; the two
     * followers alternate in order, so that a stopped broker's partitions fail over half to
     * each of the others (with three brokers).
     */
    static Map<Integer, List<Integer>> layout(int partitions, int brokers) {
        Map<Integer, List<Integer>> out = new LinkedHashMap<>();
        for (int p = 0; p < partitions; p++) {
            int preferred = p % brokers;
            int a = (preferred + 1) % brokers;
            int b = (preferred + 2) % brokers;
            boolean swap = (p / brokers) % 2 == 1;
            out.put(p, List.of(preferred, swap ? b : a, swap ? a : b));
        }
        return out;
    }

    /** The broker a partition prefers under {@link #layout}. */
    static int preferredBroker(int partition, int brokers) {
        return partition % brokers;
    }

    /** Creates the topic with {@link #layout} and waits until every partition has a full ISR. */
    static void create(Admin admin, DemoSettings settings, Duration limit) {
        NewTopic topic = new NewTopic(settings.topic(), layout(settings.partitions(), settings.brokers()));
        try {
            admin.createTopics(List.of(topic)).all().get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new EmbeddedKafkaException("could not create the demo topic '" + settings.topic() + "': " + e, e);
        }
        awaitFullIsr(admin, settings, limit);
    }

    /** Waits until every partition of the topic has a leader and all three replicas in its ISR. */
    static void awaitFullIsr(Admin admin, DemoSettings settings, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!fullyReplicated(admin, settings)) {
            if (System.nanoTime() > deadline) {
                throw new EmbeddedKafkaException("the demo topic '" + settings.topic() + "' did not reach a full ISR within "
                        + limit.toSeconds() + " s");
            }
            sleep(100);
        }
    }

    private static boolean fullyReplicated(Admin admin, DemoSettings settings) {
        try {
            TopicDescription d = admin.describeTopics(List.of(settings.topic())).allTopicNames()
                    .get(10, TimeUnit.SECONDS).get(settings.topic());
            List<TopicPartitionInfo> parts = new ArrayList<>(d.partitions());
            if (parts.size() != settings.partitions()) {
                return false;
            }
            for (TopicPartitionInfo p : parts) {
                if (p.leader() == null || p.isr().size() < 3) {
                    return false;
                }
            }
            return true;
        } catch (Exception e) {
            // Right after creation the answering broker may not know the topic yet: poll again.
            return false;
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedKafkaException("interrupted while waiting for the demo topic", e);
        }
    }
}
