package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.pacing.RateText;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What the last look read of the throttle configs that decides how Kafka counts bytes on the quotas pacing uses: the
 * follower lists (a listed replica's bytes count on its broker's follower quota, in sync or not), the leader entries
 * someone else set, and the rates someone else set.
 *
 * <p>Why pacing needs it: Kafka's replication quota is one per broker and side, shared by every listed partition
 * ({@code ReplicaFetcherThread} records the bytes of every listed partition on the follower side;
 * {@code KafkaApis.sizeOfThrottledPartitions} those sent to every follower on the leader side). Under produce load,
 * in-sync bytes take part of any rate pacing sets, and the catch-up gets only what they leave: pacing adds what it
 * measured of them to the rate it writes, so that the catch-up gets the rate it decided. And a quota someone else set,
 * or shares through their lists, is one pacing must not raise or take over: it says so, and stands back from it.
 *
 * @param followerLists          per topic read, the follower entries someone else set, or {@code *} (anyone's); a
 *                               topic without either is absent (pacing's own entries name out-of-sync replicas only)
 * @param foreignLeaderLists     per topic read, the leader entries someone else set ({@code *} when theirs is
 *                               {@code *}); a topic without any is absent
 * @param foreignFollowerRates   per broker read, the follower rate set on it by someone else
 * @param foreignDefaultFollowerRate the cluster-default follower rate, when someone else set it
 * @param foreignLeaderRates     per broker read, the leader rate set on it by someone else
 * @param leaderListsRead        whether the read covered every topic's leader list (it does while the preferred
 *                               replicas go first): else {@code foreignLeaderLists} may miss some
 */
record QuotaView(
        Map<String, ThrottledReplicas> followerLists,
        Map<String, ThrottledReplicas> foreignLeaderLists,
        Map<Integer, Long> foreignFollowerRates,
        OptionalLong foreignDefaultFollowerRate,
        Map<Integer, Long> foreignLeaderRates,
        boolean leaderListsRead) {

    /** Nothing read yet. */
    static final QuotaView NONE = new QuotaView(Map.of(), Map.of(), Map.of(), OptionalLong.empty(), Map.of(), false);

    QuotaView {
        followerLists = Map.copyOf(followerLists);
        foreignLeaderLists = Map.copyOf(foreignLeaderLists);
        foreignFollowerRates = Map.copyOf(foreignFollowerRates);
        foreignLeaderRates = Map.copyOf(foreignLeaderRates);
    }

    /**
     * The follower rate in force on {@code broker} when it is someone else's: their per-broker value, else their
     * cluster default (pacing never sets a per-broker rate over someone else's default).
     */
    OptionalLong foreignFollowerRate(int broker) {
        Long own = foreignFollowerRates.get(broker);
        return own != null ? OptionalLong.of(own) : foreignDefaultFollowerRate;
    }

    /**
     * The bytes per second of {@code broker}'s in-sync replicas that count on its follower quota: those of partitions
     * whose follower list names it or is {@code *}, each at the rate its replica grew.
     *
     * @param partitions every partition of the cluster
     * @param growth     the broker's replicas' growth, bytes per second, where measured
     */
    double followerCharged(int broker, Collection<PartitionState> partitions, Map<TopicPartition, Double> growth) {
        double charged = 0;
        for (PartitionState p : partitions) {
            if (!p.isReplica(broker) || !p.isrContains(broker) || (p.hasLeader() && p.leader() == broker)) {
                continue;
            }
            ThrottledReplicas list = followerLists.get(p.id().topic());
            if (list == null || !listed(list, p.id().partition(), broker)) {
                continue;
            }
            charged += growth.getOrDefault(new TopicPartition(p.id().topic(), p.id().partition()), 0.0);
        }
        return charged;
    }

    /**
     * The leaders whose leader quota someone else uses, with why: their leader rate is someone else's, or someone
     * else's leader entries name them (a rate pacing set there would throttle those too, and their bytes would take
     * part of it).
     *
     * @param partitions every partition of the cluster, for the leaders of a topic someone else listed as {@code *}
     */
    Map<Integer, String> foreignLeaders(Collection<PartitionState> partitions) {
        Map<Integer, String> out = new TreeMap<>();
        foreignLeaderRates.forEach((b, r) -> out.put(b, "its leader rate (" + RateText.of(r) + ") is someone else's"));
        for (PartitionState p : partitions) {
            ThrottledReplicas theirs = foreignLeaderLists.get(p.id().topic());
            if (theirs == null || !p.hasLeader() || out.containsKey(p.leader())) {
                continue;
            }
            if (listed(theirs, p.id().partition(), p.leader())) {
                out.put(p.leader(), "someone else's leader entries on topic " + p.id().topic() + " name it");
            }
        }
        return out;
    }

    private static boolean listed(ThrottledReplicas list, int partition, int broker) {
        return list.all() || list.replicas().contains(new ThrottledReplicas.Replica(partition, broker));
    }
}
