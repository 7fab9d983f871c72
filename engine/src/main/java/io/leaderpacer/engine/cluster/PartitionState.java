package io.leaderpacer.engine.cluster;

import java.util.Arrays;
import java.util.Objects;

/**
 * One partition as the controller's metadata image holds it.
 *
 * <p>Replica lists are kept as {@code int[]} because a snapshot may hold a million partitions;
 * the arrays are copied in and never handed out, so the record stays immutable. The query
 * methods ({@link #isrContains(int)}, {@link #replicaAt(int)}) are what the engine's hot loop
 * uses instead of the copying accessors.
 *
 * @param id           topic and partition index
 * @param replicas     the assignment, in order; {@code replicas[0]} is Kafka's preferred replica
 * @param isr          the in-sync replicas (a subset of {@code replicas})
 * @param elr          the eligible leader replicas of KIP-966 (a subset of {@code replicas},
 *                     disjoint from the ISR); empty when ELR is off
 * @param leader       the current leader, or {@link #NO_LEADER}
 * @param reassigning  a reassignment is in progress ({@code wait-for-sync} leaves it alone; Kafka's own
 *                     loop, hence {@code immediate}, does not)
 * @param topicDeleting the topic is being deleted; the preferred-leader task leaves it alone (Kafka's
 *                     controller no longer holds such a partition)
 * @param lastKnownElr KIP-966's last known leader: Kafka records the leader a partition had when its election
 *                     wrote "no leader" with ELR on; with an empty ISR and ELR, a one-member list whose broker is
 *                     active is what Kafka elects ("balanced recovery", an unclean election). Empty otherwise.
 */
public record PartitionState(
        PartitionId id,
        int[] replicas,
        int[] isr,
        int[] elr,
        int leader,
        boolean reassigning,
        boolean topicDeleting,
        int[] lastKnownElr) {

    /** Kafka's "no leader" value. */
    public static final int NO_LEADER = -1;

    private static final int[] NONE = new int[0];

    public PartitionState {
        Objects.requireNonNull(id, "id");
        replicas = copy(replicas);
        isr = copy(isr);
        elr = copy(elr);
        lastKnownElr = copy(lastKnownElr);
        validate(id, replicas, isr, elr, leader);
    }

    /** A partition with no last known leader (the common case, and every case with ELR off). */
    public PartitionState(
            PartitionId id,
            int[] replicas,
            int[] isr,
            int[] elr,
            int leader,
            boolean reassigning,
            boolean topicDeleting) {
        this(id, replicas, isr, elr, leader, reassigning, topicDeleting, NONE);
    }

    /** A partition that is neither being reassigned nor deleted, with no ELR. */
    public static PartitionState of(String topic, int partition, int[] replicas, int[] isr, int leader) {
        return new PartitionState(new PartitionId(topic, partition), replicas, isr, NONE, leader, false, false);
    }

    /** Returns a copy with another ISR and leader, as after an AlterPartition or election. */
    public PartitionState withIsrAndLeader(int[] newIsr, int newLeader) {
        return new PartitionState(id, replicas, newIsr, elr, newLeader, reassigning, topicDeleting, lastKnownElr);
    }

    /** Returns a copy with another leader. */
    public PartitionState withLeader(int newLeader) {
        return new PartitionState(id, replicas, isr, elr, newLeader, reassigning, topicDeleting, lastKnownElr);
    }

    /** Returns a copy marked as being reassigned (or not). */
    public PartitionState withReassigning(boolean value) {
        return new PartitionState(id, replicas, isr, elr, leader, value, topicDeleting, lastKnownElr);
    }

    /** Returns a copy marked as belonging to a topic being deleted (or not). */
    public PartitionState withTopicDeleting(boolean value) {
        return new PartitionState(id, replicas, isr, elr, leader, reassigning, value, lastKnownElr);
    }

    @Override
    public int[] replicas() {
        return replicas.clone();
    }

    @Override
    public int[] isr() {
        return isr.clone();
    }

    @Override
    public int[] elr() {
        return elr.clone();
    }

    @Override
    public int[] lastKnownElr() {
        return lastKnownElr.clone();
    }

    /** The last known leader Kafka would elect with an empty ISR and ELR, or {@link #NO_LEADER} when there is none. */
    public int lastKnownLeader() {
        return lastKnownElr.length == 1 ? lastKnownElr[0] : NO_LEADER;
    }

    public boolean elrIsEmpty() {
        return elr.length == 0;
    }

    public int replicaCount() {
        return replicas.length;
    }

    public int replicaAt(int index) {
        return replicas[index];
    }

    public boolean hasLeader() {
        return leader != NO_LEADER;
    }

    public boolean isrIsEmpty() {
        return isr.length == 0;
    }

    public boolean isrContains(int broker) {
        return contains(isr, broker);
    }

    public boolean elrContains(int broker) {
        return contains(elr, broker);
    }

    public boolean isReplica(int broker) {
        return contains(replicas, broker);
    }

    /** How many replicas are in the ISR (with {@link #isrAt}, read without copying the array). */
    public int isrSize() {
        return isr.length;
    }

    /** The ISR member at an index ({@code index < isrSize()}). */
    public int isrAt(int index) {
        return isr[index];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionState p
                && leader == p.leader
                && reassigning == p.reassigning
                && topicDeleting == p.topicDeleting
                && id.equals(p.id)
                && Arrays.equals(replicas, p.replicas)
                && Arrays.equals(isr, p.isr)
                && Arrays.equals(elr, p.elr)
                && Arrays.equals(lastKnownElr, p.lastKnownElr);
    }

    @Override
    public int hashCode() {
        int h = id.hashCode();
        h = 31 * h + Arrays.hashCode(replicas);
        h = 31 * h + Arrays.hashCode(isr);
        h = 31 * h + Arrays.hashCode(elr);
        h = 31 * h + leader;
        return h;
    }

    @Override
    public String toString() {
        return id + "{replicas=" + Arrays.toString(replicas) + ", isr=" + Arrays.toString(isr)
                + (elr.length > 0 ? ", elr=" + Arrays.toString(elr) : "")
                + (lastKnownElr.length > 0 ? ", lastKnownElr=" + Arrays.toString(lastKnownElr) : "")
                + ", leader=" + leader
                + (reassigning ? ", reassigning" : "")
                + (topicDeleting ? ", deleting" : "") + "}";
    }

    private static int[] copy(int[] array) {
        return array == null || array.length == 0 ? NONE : array.clone();
    }

    private static boolean contains(int[] array, int value) {
        for (int v : array) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }

    private static void validate(PartitionId id, int[] replicas, int[] isr, int[] elr, int leader) {
        if (replicas.length == 0) {
            throw new InvalidSnapshotException("partition " + id + ": replica list is empty");
        }
        for (int i = 0; i < replicas.length; i++) {
            if (replicas[i] < 0) {
                throw new InvalidSnapshotException("partition " + id + ": negative broker id " + replicas[i]
                        + " in replicas " + Arrays.toString(replicas));
            }
            for (int j = 0; j < i; j++) {
                if (replicas[j] == replicas[i]) {
                    throw new InvalidSnapshotException("partition " + id + ": broker " + replicas[i]
                            + " appears twice in replicas " + Arrays.toString(replicas));
                }
            }
        }
        checkSubset(id, "isr", isr, replicas);
        checkSubset(id, "elr", elr, replicas);
        for (int b : elr) {
            if (contains(isr, b)) {
                throw new InvalidSnapshotException("partition " + id + ": broker " + b + " is in both isr "
                        + Arrays.toString(isr) + " and elr " + Arrays.toString(elr));
            }
        }
        if (leader != NO_LEADER && !contains(replicas, leader)) {
            throw new InvalidSnapshotException("partition " + id + ": leader " + leader + " is not one of its replicas "
                    + Arrays.toString(replicas));
        }
    }

    private static void checkSubset(PartitionId id, String name, int[] subset, int[] replicas) {
        for (int i = 0; i < subset.length; i++) {
            if (!contains(replicas, subset[i])) {
                throw new InvalidSnapshotException("partition " + id + ": " + name + " member " + subset[i]
                        + " is not one of its replicas " + Arrays.toString(replicas));
            }
            for (int j = 0; j < i; j++) {
                if (subset[j] == subset[i]) {
                    throw new InvalidSnapshotException("partition " + id + ": broker " + subset[i]
                            + " appears twice in " + name + " " + Arrays.toString(subset));
                }
            }
        }
    }
}
