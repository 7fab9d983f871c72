package io.leaderpacer.simulator.model;

import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.simulator.sim.IntList;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Partitions grouped by what their latency depends on — leader and in-sync followers — so that a
 * tick computes one mean per group instead of one per partition.
 *
 * <p>With the round-robin placement a million partitions on a thousand brokers fall into a few
 * thousand groups. Partitions whose latency is their own business for a while (moved recently,
 * blocked, leaderless) are <em>detached</em> from their group and computed one by one until they
 * are ordinary again.
 *
 * <p>Each tick a group's requests are recorded as two means when a follower of the group catches up on other
 * partitions: those caught behind a catch-up response ({@link LatencyModel#caughtShare}) and the others; and each of
 * those two again when a broker of the group stands at its CPU quota now and then
 * ({@link LatencyModel#standingShare}): the writes that need it while it stands, and the others.
 */
public final class LatencyClasses implements ModelCluster.Listener {

    /**
     * A group: a leader, the in-sync followers its producers wait for (sorted; none with acks=1), whether the
     * partitions are protected (their preferred leader is a restarted broker) and a restarted broker's role in them,
     * so that each class and each role has its own P99.
     */
    private record ClassKey(int leader, int[] followers, boolean protectedClass, RestartedRole role) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ClassKey k
                    && k.leader == leader
                    && k.protectedClass == protectedClass
                    && k.role == role
                    && Arrays.equals(k.followers, followers);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * (31 * leader + Arrays.hashCode(followers)) + (protectedClass ? 1 : 0)) + role.ordinal();
        }
    }

    private final ClusterLayout layout;
    private final LeadershipGains gains;
    private final LongSupplier clock;
    private ModelCluster cluster;

    private final Map<ClassKey, Integer> classIndex = new HashMap<>();
    private int classCount;
    private int[] classLeader = new int[64];
    private int[][] classFollowers = new int[64][];
    private boolean[] classProtected = new boolean[64];
    private RestartedRole[] classRole = new RestartedRole[64];
    /** Partitions whose preferred leader is a restarted broker: the class KIP-1358's producers care about. */
    private final boolean[] protectedPartition;
    /** Brokers the scenario restarts: a partition's latency is also filed by the role one of them plays in it. */
    private final boolean[] restartedBroker;
    /** Produce requests per second (thousandths) of the attached partitions of each group. */
    private long[] classMilli = new long[64];

    /** Group of each partition, or -1 without a leader. */
    private final int[] classOf;
    /** The partition's requests are counted in its group. */
    private final boolean[] attached;

    private final boolean[] inDetached;
    private final IntList detached = new IntList(1024);
    /** When the partition's leadership last moved, or Long.MIN_VALUE. */
    private final long[] movedAtMs;
    /** When it lost its leader, if it has none. */
    private final long[] leaderlessSinceMs;

    public LatencyClasses(
            ClusterLayout layout,
            LeadershipGains gains,
            LongSupplier clock,
            boolean[] protectedPartition,
            boolean[] restartedBroker) {
        this.layout = layout;
        this.protectedPartition = protectedPartition.clone();
        this.restartedBroker = restartedBroker.clone();
        this.gains = gains;
        this.clock = clock;
        classOf = new int[layout.partitions];
        attached = new boolean[layout.partitions];
        inDetached = new boolean[layout.partitions];
        movedAtMs = new long[layout.partitions];
        leaderlessSinceMs = new long[layout.partitions];
        Arrays.fill(movedAtMs, Long.MIN_VALUE);
    }

    /** Files every partition in its group: call once the cluster state exists. */
    public void attachAll(ModelCluster state) {
        this.cluster = state;
        for (int p = 0; p < layout.partitions; p++) {
            classOf[p] = classFor(p);
            if (classOf[p] >= 0) {
                attached[p] = true;
                classMilli[classOf[p]] += layout.produceMilliRequests[p];
            } else {
                detach(p);
            }
        }
    }

    public int classCount() {
        return classCount;
    }

    public int detachedCount() {
        return detached.size();
    }

    @Override
    public void leaderChanged(int p, int previousLeader, int newLeader) {
        long now = clock.getAsLong();
        detach(p);
        movedAtMs[p] = now;
        if (newLeader == PartitionState.NO_LEADER) {
            leaderlessSinceMs[p] = now;
        } else {
            gains.gained(newLeader, now);
        }
        classOf[p] = classFor(p);
    }

    @Override
    public void isrChanged(int p) {
        if (attached[p]) {
            classMilli[classOf[p]] -= layout.produceMilliRequests[p];
            classOf[p] = classFor(p);
            classMilli[classOf[p]] += layout.produceMilliRequests[p];
        } else {
            classOf[p] = classFor(p);
        }
    }

    /** Computes the partition one by one from now on, until nothing special applies to it. */
    public void detach(int p) {
        if (attached[p]) {
            classMilli[classOf[p]] -= layout.produceMilliRequests[p];
            attached[p] = false;
        }
        if (!inDetached[p]) {
            inDetached[p] = true;
            detached.add(p);
        }
    }

    /** Records one tick of produce requests, starting at {@code nowMs} and lasting {@code tickMs}. */
    public void recordTick(long nowMs, long tickMs, LatencyModel model, LatencySink sink) {
        for (int c = 0; c < classCount; c++) {
            long milli = classMilli[c] * tickMs / 1000;
            if (milli <= 0) {
                continue;
            }
            int leader = classLeader[c];
            int[] followers = classFollowers[c];
            recordParts(
                    milli,
                    model.caughtShare(leader, followers),
                    model.standingShare(leader, followers),
                    (caught, standing) -> model.steadyMeanMs(leader, followers, caught, standing),
                    sink,
                    leader,
                    classProtected[c],
                    classRole[c]);
        }
        for (int i = 0; i < detached.size(); ) {
            int p = detached.get(i);
            long milli = layout.produceMilliRequests[p] * tickMs / 1000;
            double blocked = model.blockedMs(p, leaderlessSinceMs[p], nowMs);
            int leader = cluster.leader(p);
            boolean hasLeader = leader != PartitionState.NO_LEADER;
            boolean prot = protectedPartition[p];
            RestartedRole role = roleOf(p);
            if (!hasLeader) {
                sink.recordExact(blocked, milli, -1, prot, role);
                i++;
                continue;
            }
            double share = model.caughtShare(p);
            double standingShare = model.standingShare(p);
            long movedAt = movedAtMs[p];
            MeanOf meanOf = (caught, standing) -> model.meanMs(p, movedAt, nowMs, caught, standing);
            if (blocked > 0) {
                double mean = meanOf.ms(false, false);
                double extra =
                        share * (meanOf.ms(true, false) - mean) + standingShare * (meanOf.ms(false, true) - mean);
                sink.recordExact(blocked + mean + extra, milli, leader, prot, role);
                i++;
                continue;
            }
            recordParts(milli, share, standingShare, meanOf, sink, leader, prot, role);
            boolean moving = movedAtMs[p] != Long.MIN_VALUE && nowMs + tickMs - movedAtMs[p] < model.moveTransientMs();
            if (moving || model.waitsForJoiningReplica(p)) {
                i++;
                continue;
            }
            attached[p] = true;
            classMilli[classOf[p]] += layout.produceMilliRequests[p];
            inDetached[p] = false;
            detached.swapRemove(i);
        }
    }

    /** A part's mean latency: caught behind a catch-up response or not, needing a standing broker or not. */
    @FunctionalInterface
    private interface MeanOf {
        double ms(boolean caught, boolean standing);
    }

    /**
     * Records {@code milli} requests in up to four parts: caught behind a catch-up response or not, and of each, those
     * that need a broker while it stands at its quota and the others, each part with its own mean.
     */
    private static void recordParts(
            long milli,
            double caughtShare,
            double standingShare,
            MeanOf mean,
            LatencySink sink,
            int leader,
            boolean prot,
            RestartedRole role) {
        long caught = shareOf(milli, caughtShare);
        long[] parts = {milli - caught, caught};
        for (int c = 0; c < 2; c++) {
            long stood = shareOf(parts[c], standingShare);
            if (parts[c] - stood > 0) {
                sink.recordMean(mean.ms(c == 1, false), parts[c] - stood, leader, prot, role);
            }
            if (stood > 0) {
                sink.recordMean(mean.ms(c == 1, true), stood, leader, prot, role);
            }
        }
    }

    /** The part of a tick's requests (thousandths) a share stands for, rounded to a whole thousandth. */
    private static long shareOf(long milli, double share) {
        return share <= 0 ? 0 : Math.min(milli, Math.round(milli * share));
    }

    private int classFor(int p) {
        int leader = cluster.leader(p);
        if (leader == PartitionState.NO_LEADER) {
            return -1;
        }
        int mask = layout.acksAll[p] ? cluster.isrMask(p) : 0;
        int base = layout.replicaStart[p];
        int n = 0;
        int[] tmp = new int[layout.replicaCount(p)];
        for (int j = 0; j < layout.replicaCount(p); j++) {
            int b = layout.slotBroker[base + j];
            if (b != leader && (mask & (1 << j)) != 0) {
                tmp[n++] = b;
            }
        }
        int[] followers = Arrays.copyOf(tmp, n);
        Arrays.sort(followers);
        RestartedRole role = roleOf(p);
        ClassKey key = new ClassKey(leader, followers, protectedPartition[p], role);
        Integer c = classIndex.get(key);
        if (c != null) {
            return c;
        }
        if (classCount == classLeader.length) {
            int size = classCount * 2;
            classLeader = Arrays.copyOf(classLeader, size);
            classFollowers = Arrays.copyOf(classFollowers, size);
            classMilli = Arrays.copyOf(classMilli, size);
            classProtected = Arrays.copyOf(classProtected, size);
            classRole = Arrays.copyOf(classRole, size);
        }
        classProtected[classCount] = protectedPartition[p];
        classRole[classCount] = role;
        classLeader[classCount] = leader;
        classFollowers[classCount] = followers;
        classIndex.put(key, classCount);
        return classCount++;
    }

    /** The role a restarted broker plays in the partition now: leads it, is in its ISR, holds a replica, or none. */
    RestartedRole roleOf(int p) {
        int leader = cluster.leader(p);
        if (leader != PartitionState.NO_LEADER && restartedBroker[leader]) {
            return RestartedRole.LEADER;
        }
        int isr = cluster.isrMask(p);
        int base = layout.replicaStart[p];
        RestartedRole role = RestartedRole.NONE;
        for (int j = 0; j < layout.replicaCount(p); j++) {
            int b = layout.slotBroker[base + j];
            if (b == leader || !restartedBroker[b]) {
                continue;
            }
            if ((isr & (1 << j)) != 0) {
                return RestartedRole.IN_SYNC_FOLLOWER;
            }
            role = RestartedRole.NOT_IN_ISR;
        }
        return role;
    }
}
