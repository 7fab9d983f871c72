package io.leaderpacer.agent.rolling;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether restarting one broker now is safe: no other broker is recovering (down, or out of an ISR), and no partition
 * whose ISR holds the broker would fall under its {@code min.insync.replicas} without it, which would refuse
 * {@code acks=all} writes to it for the restart's length. The reasons when it is not.
 *
 * <p>Why both: the second is the arithmetic of one restart; the first is what a roller that waits for "broker up"
 * misses: the previous broker is up but still catching up, and its partitions still have a copy fewer.
 */
public final class RestartSafety {

    private RestartSafety() {}

    /**
     * @param snapshot         the cluster as just read
     * @param broker           the broker to restart
     * @param minInsyncByTopic per topic, its {@code min.insync.replicas} (a topic missing counts as 1)
     */
    public static Recovered.Verdict of(ClusterSnapshot snapshot, int broker, Map<String, Integer> minInsyncByTopic) {
        List<String> reasons = new ArrayList<>();
        if (!snapshot.isRegistered(broker)) {
            reasons.add("broker " + broker + " is not registered in the cluster");
            return new Recovered.Verdict(false, reasons);
        }
        Set<Integer> recovering = new TreeSet<>();
        for (BrokerState b : snapshot.brokers().values()) {
            if (b.id() != broker && !b.isActive()) {
                recovering.add(b.id());
            }
        }
        List<String> underMin = new ArrayList<>();
        for (PartitionState p : snapshot.partitions()) {
            for (int r : p.replicas()) {
                if (r != broker && !p.isrContains(r)) {
                    recovering.add(r);
                }
            }
            if (!p.isrContains(broker)) {
                continue;
            }
            int min = minInsyncByTopic.getOrDefault(p.id().topic(), 1);
            if (p.isrSize() - 1 < min) {
                underMin.add(p.id().toString());
            }
        }
        if (!recovering.isEmpty()) {
            reasons.add("brokers still recovering (down, or out of an ISR): " + recovering
                    + "; wait for pacer await-recovery");
        }
        if (!underMin.isEmpty()) {
            reasons.add("without broker " + broker + ", these would be under their min.insync.replicas and refuse"
                    + " acks=all writes: " + Recovered.named(underMin));
        }
        return new Recovered.Verdict(reasons.isEmpty(), reasons);
    }
}
