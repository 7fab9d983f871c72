package io.leaderpacer.agent.rolling;

import io.leaderpacer.engine.EffectiveReplicaOrder;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether a cluster has recovered from a restart: every registered broker up, every replica back in its ISR, every
 * partition led by the leader the policy gives it back (its first replica in the effective order, KIP-491's
 * deprioritized brokers last), and catch-up pacing owning no throttle. What is still missing, in a few lines.
 *
 * <p>Why each: a broker still fenced or a replica out of its ISR is a partition with a copy fewer (a second restart now
 * may take it under {@code min.insync.replicas}); leadership not back is a broker that will take elections later, at
 * the next restart's worst moment; a throttle pacing still owns is a catch-up not over.
 */
public final class Recovered {

    /** How many partitions a line names before it says how many more. */
    private static final int NAMED = 5;

    private Recovered() {}

    /**
     * @param ok      whether the cluster has recovered (or the restart is safe)
     * @param missing what is not yet (or why not), one line each; empty when ok
     */
    public record Verdict(boolean ok, List<String> missing) {
        public Verdict {
            missing = List.copyOf(missing);
        }
    }

    /**
     * @param snapshot      the cluster as just read
     * @param deprioritized the deprioritized brokers in force (KIP-491): they lead last
     * @param pacingOwns    whether catch-up pacing's ledger records a throttle value of its own
     */
    public static Verdict of(ClusterSnapshot snapshot, Set<Integer> deprioritized, boolean pacingOwns) {
        List<String> missing = new ArrayList<>();
        Set<Integer> down = new TreeSet<>();
        for (BrokerState b : snapshot.brokers().values()) {
            if (!b.isActive()) {
                down.add(b.id());
            }
        }
        if (!down.isEmpty()) {
            missing.add("brokers not up (fenced, stopping or gone): " + down);
        }
        EffectiveReplicaOrder order = EffectiveReplicaOrder.of(deprioritized);
        TreeMap<Integer, List<String>> outOfIsr = new TreeMap<>();
        TreeMap<Integer, List<String>> notLeading = new TreeMap<>();
        for (PartitionState p : snapshot.partitions()) {
            for (int r : p.replicas()) {
                if (!p.isrContains(r)) {
                    outOfIsr.computeIfAbsent(r, k -> new ArrayList<>()).add(p.id().toString());
                }
            }
            int preferred = order.preferred(p);
            if (p.isrContains(preferred) && (!p.hasLeader() || p.leader() != preferred)) {
                notLeading.computeIfAbsent(preferred, k -> new ArrayList<>()).add(p.id().toString());
            }
        }
        outOfIsr.forEach((b, ps) -> missing.add("broker " + b + " is out of the ISR of " + named(ps)));
        notLeading.forEach((b, ps) -> missing.add("broker " + b + " does not lead yet " + named(ps)
                + " (it is their preferred leader; the agent hands leadership back at its pace)"));
        if (pacingOwns) {
            missing.add("catch-up pacing still owns replication throttles (pacer throttles lists them)");
        }
        return new Verdict(missing.isEmpty(), missing);
    }

    /** e.g. "3 partitions: t-0, t-1, t-2" or "120 partitions: t-0, ... and 115 more". */
    static String named(List<String> partitions) {
        String first = String.join(", ", partitions.subList(0, Math.min(NAMED, partitions.size())));
        return String.format(
                Locale.ROOT,
                "%d partition%s: %s%s",
                partitions.size(),
                partitions.size() == 1 ? "" : "s",
                first,
                partitions.size() > NAMED ? ", and " + (partitions.size() - NAMED) + " more" : "");
    }
}
