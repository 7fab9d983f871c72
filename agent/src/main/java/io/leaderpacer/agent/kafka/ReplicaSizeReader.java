package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.core.TimeoutMs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The size of every replica a broker hosts, summed over its log directories, as {@code describeLogDirs} reports it:
 * sizes only, no data read.
 *
 * <p>Why a port: pacing measures bytes behind, and the rates at which logs grow and fall, from these sizes; a broker
 * that does not answer (one starting, until it is unfenced, or one gone) must read as absent, not as empty.
 */
public final class ReplicaSizeReader {

    private final Admin admin;
    private final Duration timeout;

    public ReplicaSizeReader(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /**
     * Per broker asked that answered within the time-out, each replica's size in bytes.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    public Map<Integer, Map<TopicPartition, Long>> read(Collection<Integer> brokers) throws InterruptedException {
        Map<Integer, Map<TopicPartition, Long>> sizes = new HashMap<>();
        if (brokers.isEmpty()) {
            return sizes;
        }
        long ms = timeout.toMillis();
        admin.describeLogDirs(brokers, new DescribeLogDirsOptions().timeoutMs(TimeoutMs.of(ms)))
                .descriptions()
                .forEach((broker, future) -> {
                    try {
                        Map<String, LogDirDescription> dirs = future.get(ms, TimeUnit.MILLISECONDS);
                        Map<TopicPartition, Long> bySize = new HashMap<>();
                        dirs.values()
                                .forEach(d -> d.replicaInfos()
                                        .forEach((tp, info) -> bySize.merge(tp, info.size(), Long::sum)));
                        sizes.put(broker, bySize);
                    } catch (ExecutionException | TimeoutException e) {
                        // Not answering (starting, or gone): no sizes from it this time.
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("interrupted while reading log directory sizes");
        }
        return sizes;
    }
}
