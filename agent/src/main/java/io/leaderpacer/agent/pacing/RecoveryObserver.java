package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.pacing.BrokerSignals;
import io.leaderpacer.engine.pacing.CatchUpState;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * Turns a cluster snapshot into the pacing rule's signals: which brokers are down, which catch up (and by how many
 * bytes), which are in every ISR.
 *
 * <p>Bytes behind come from {@code describeLogDirs} of the catching-up broker and of the leaders it follows (sizes
 * only, no data read). A broker that does not answer, which a starting broker does until it is unfenced, has no
 * bytes behind: the rule then holds its rate.
 */
final class RecoveryObserver {

    private final Admin admin;
    private final Duration timeout;
    /**
     * The previous look's sizes of each catching-up broker's out-of-sync replicas and of their leaders, for the flows
     * (see {@link BrokerSignals.Flow}); and when it was taken.
     */
    private Map<Integer, Map<TopicPartition, Sizes>> previous = Map.of();

    /** The previous look's replica sizes of every broker that answered, for each replica's growth. */
    private Map<Integer, Map<TopicPartition, Long>> previousSizes = Map.of();

    private long previousAtMs;

    /** A replica's size, its leader's, and which broker led it. */
    record Sizes(long own, long leader, int leaderId) {}

    RecoveryObserver(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /** A look with no throttle configs known (the first, or a dry run's). */
    RecoveryObservation observe(ClusterSnapshot snapshot, IntFunction<OptionalDouble> canary, long nowMs)
            throws InterruptedException {
        return observe(snapshot, canary, QuotaView.NONE, nowMs);
    }

    /**
     * @param snapshot the cluster as just read
     * @param canary   per broker, the canary's P99 over its steady P99 where that broker is an in-sync follower
     * @param quotas   what the last look read of the throttle configs: which in-sync replicas are listed (their bytes
     *                 count on the broker's follower quota), and whose rate is in force on each broker
     */
    RecoveryObservation observe(
            ClusterSnapshot snapshot, IntFunction<OptionalDouble> canary, QuotaView quotas, long nowMs)
            throws InterruptedException {
        Map<Integer, List<PartitionState>> outOfSync = new TreeMap<>();
        Set<Integer> hosting = new TreeSet<>();
        for (PartitionState p : snapshot.partitions()) {
            for (int b : p.replicas()) {
                hosting.add(b);
                if (!p.isrContains(b)) {
                    outOfSync.computeIfAbsent(b, k -> new ArrayList<>()).add(p);
                }
            }
        }
        // Every active broker, hosting replicas or not: a broker pacing set a leader rate on may lead none now, and
        // its rate must still be read and restored.
        Set<Integer> active = new TreeSet<>();
        for (int b : snapshot.registeredBrokerIds()) {
            if (snapshot.isActive(b)) {
                active.add(b);
            }
        }
        Set<Integer> catchingUp = new TreeSet<>();
        for (int b : active) {
            if (outOfSync.containsKey(b)) {
                catchingUp.add(b);
            }
        }
        Map<Integer, Map<TopicPartition, Long>> sizes = sizes(catchingUp, outOfSync);
        Map<Integer, Long> behind = new HashMap<>();
        Map<Integer, Map<TopicPartition, Long>> byReplica = new HashMap<>();
        Map<Integer, Map<TopicPartition, Sizes>> now = new HashMap<>();
        Map<Integer, BrokerSignals.Flow> flows = new HashMap<>();
        Map<Integer, Map<TopicPartition, Double>> growth = growth(previousSizes, sizes, nowMs - previousAtMs);
        for (int b : catchingUp) {
            ReplicaBytes bytes = ReplicaBytes.of(b, sizes, outOfSync.get(b));
            if (bytes.behind() >= 0) {
                behind.put(b, bytes.behind());
                byReplica.put(b, ReplicaBytes.behindByPartition(b, sizes, outOfSync.get(b)));
                now.put(b, sizesOf(b, sizes, outOfSync.get(b)));
                BrokerSignals.Flow f = flow(previous.get(b), now.get(b), nowMs - previousAtMs);
                if (f.known() && growth.containsKey(b)) {
                    double charged = quotas.followerCharged(b, snapshot.partitions(), growth.get(b));
                    f = BrokerSignals.Flow.of(
                            f.fetchBytesPerSecond().getAsDouble(),
                            f.inflowBytesPerSecond().getAsDouble(),
                            charged);
                }
                flows.put(b, f);
            }
        }
        previous = now;
        previousSizes = sizes;
        previousAtMs = nowMs;
        List<BrokerSignals> signals = new ArrayList<>();
        for (int b : hosting) {
            if (!active.contains(b)) {
                signals.add(BrokerSignals.inactive(b));
            } else if (!catchingUp.contains(b)) {
                signals.add(BrokerSignals.inSync(b));
            } else {
                Long bytes = behind.get(b);
                signals.add(new BrokerSignals(
                        b,
                        CatchUpState.CATCHING_UP,
                        bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes),
                        canary.apply(b),
                        flows.getOrDefault(b, BrokerSignals.Flow.UNKNOWN),
                        quotas.foreignFollowerRate(b)));
            }
        }
        return new RecoveryObservation(signals, outOfSync, byReplica, active, growth);
    }

    /**
     * Per broker that answered at both looks, each replica's growth in bytes per second (0 for one that shrank: a log
     * that deleted old segments says nothing of what flowed in).
     */
    static Map<Integer, Map<TopicPartition, Double>> growth(
            Map<Integer, Map<TopicPartition, Long>> before,
            Map<Integer, Map<TopicPartition, Long>> now,
            long elapsedMs) {
        Map<Integer, Map<TopicPartition, Double>> out = new HashMap<>();
        if (elapsedMs <= 0) {
            return out;
        }
        now.forEach((broker, sizes) -> {
            Map<TopicPartition, Long> was = before.get(broker);
            if (was == null) {
                return;
            }
            Map<TopicPartition, Double> g = new HashMap<>();
            sizes.forEach((tp, size) -> {
                Long w = was.get(tp);
                if (w != null) {
                    g.put(tp, Math.max(0, size - w) * 1000.0 / elapsedMs);
                }
            });
            out.put(broker, g);
        });
        return out;
    }

    /** Per out-of-sync replica {@code broker} follows whose leader answered, its size and its leader's. */
    private static Map<TopicPartition, Sizes> sizesOf(
            int broker, Map<Integer, Map<TopicPartition, Long>> sizes, List<PartitionState> outOfSync) {
        Map<TopicPartition, Long> own = sizes.get(broker);
        Map<TopicPartition, Sizes> out = new HashMap<>();
        for (PartitionState p : outOfSync) {
            if (!p.hasLeader() || p.leader() == broker || !sizes.containsKey(p.leader())) {
                continue;
            }
            TopicPartition tp = new TopicPartition(p.id().topic(), p.id().partition());
            Long leader = sizes.get(p.leader()).get(tp);
            if (leader != null) {
                out.put(tp, new Sizes(own.getOrDefault(tp, 0L), leader, p.leader()));
            }
        }
        return out;
    }

    /**
     * The flows between two looks, over the replicas out of sync at both under the same leader: each replica's growth
     * (what it fetched) and its leader's (what flowed in), counted when positive (a log that shrank deleted old
     * segments, which says nothing of either).
     */
    static BrokerSignals.Flow flow(Map<TopicPartition, Sizes> before, Map<TopicPartition, Sizes> now, long elapsedMs) {
        if (before == null || elapsedMs <= 0) {
            return BrokerSignals.Flow.UNKNOWN;
        }
        long fetched = 0;
        long inflow = 0;
        for (Map.Entry<TopicPartition, Sizes> e : now.entrySet()) {
            Sizes b = before.get(e.getKey());
            Sizes n = e.getValue();
            if (b == null || b.leaderId() != n.leaderId()) {
                continue;
            }
            fetched += Math.max(0, n.own() - b.own());
            inflow += Math.max(0, n.leader() - b.leader());
        }
        return BrokerSignals.Flow.of(fetched * 1000.0 / elapsedMs, inflow * 1000.0 / elapsedMs);
    }

    /** The replica sizes of the catching-up brokers and of every leader they follow, per broker that answered. */
    private Map<Integer, Map<TopicPartition, Long>> sizes(
            Set<Integer> catchingUp, Map<Integer, List<PartitionState>> outOfSync) throws InterruptedException {
        if (catchingUp.isEmpty()) {
            return Map.of();
        }
        Set<Integer> asked = new TreeSet<>(catchingUp);
        for (int b : catchingUp) {
            for (PartitionState p : outOfSync.get(b)) {
                if (p.hasLeader()) {
                    asked.add(p.leader());
                }
            }
        }
        Map<Integer, Map<TopicPartition, Long>> sizes = new HashMap<>();
        long ms = timeout.toMillis();
        admin.describeLogDirs(asked, new DescribeLogDirsOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, ms)))
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
