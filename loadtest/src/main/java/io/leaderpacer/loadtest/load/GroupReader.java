package io.leaderpacer.loadtest.load;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A consumer group reading the load topic for the whole test, committing as it goes.
 *
 * <p>Why: a real cluster has consumers, and their group's coordinator is the leader of a {@code __consumer_offsets}
 * partition; with a group committing throughout, those partitions' leadership moves with the rest, and a coordinator
 * on a saturated broker is felt like any other leader.
 */
public final class GroupReader implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final AtomicLong records = new AtomicLong();
    private volatile boolean running = true;

    public GroupReader(Map<String, Object> clientProperties, String topic, String groupId) {
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true");
        props.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, "1000");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "leader-pacer-loadtest-reader");
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        this.thread = new Thread(this::loop, "loadtest-group-reader");
        this.thread.setDaemon(true);
    }

    public GroupReader start() {
        thread.start();
        return this;
    }

    private void loop() {
        try {
            while (running) {
                try {
                    records.addAndGet(consumer.poll(Duration.ofMillis(500)).count());
                } catch (WakeupException e) {
                    return;
                } catch (RuntimeException e) {
                    // A commit or fetch that failed while brokers restart: the group keeps reading.
                    pause();
                }
            }
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records read so far. */
    public long records() {
        return records.get();
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
