package io.leaderpacer.engine.cluster;

/**
 * The candidates of a {@link ClusterState} (imbalanced partitions outside a deleted topic), filed so that a run
 * reads only what it elects or must look at, kept up to date by the state's replay.
 *
 * <p>Why three views: a candidate whose preferred (first assigned) replica is out of a non-empty ISR while its
 * leader is an active ISR member changes nothing, and in a recovery that is most candidates of the brokers still
 * catching up; a candidate whose preferred replica is in the ISR is elected as soon as that broker is active;
 * the rest (no leader, an empty ISR, a leader outside the ISR) need Kafka's whole rule. So:
 * <ul>
 *   <li>{@link #nextToExamine} walks, in position order, every candidate that is not known to change nothing
 *       (what {@code immediate} walks: Kafka's order, without the ones it would pass over);</li>
 *   <li>the per-broker {@linkplain #bucketSize buckets} hold the candidates with the preferred replica in the
 *       ISR, not under reassignment, in position order (what {@code wait-for-sync} takes from, or skips whole
 *       when the broker is gated);</li>
 *   <li>{@link #nextToEvaluate} walks the candidates to examine that are in no bucket's fast case: the preferred
 *       replica out of the ISR (the rest of the rule decides).</li>
 * </ul>
 * Electability thus follows broker changes: when a leader's broker is fenced or shuts down, the candidates it
 * leads with their preferred replica out of sync move into the walks (found through a per-leader bag, not a
 * pass); when it is back, they leave.
 */
public final class CandidateIndex {

    /** Every candidate, in position order. */
    private final PositionSet all = new PositionSet();
    /** Candidates not known to change nothing. */
    private final PositionSet toExamine = new PositionSet();
    /** Of those, the ones with the preferred replica out of the ISR. */
    private final PositionSet toEvaluate = new PositionSet();
    /** Of those, the ones with the preferred replica in the ISR under reassignment (in no bucket). */
    private final PositionSet reassigningInIsr = new PositionSet();
    /** Per preferred broker, candidates with the preferred replica in the ISR, not reassigning. */
    private final CandidateBuckets buckets = new CandidateBuckets();
    /** Per leader, candidates with the preferred replica out of a non-empty ISR and the leader in it. */
    private final BrokerBags stuckByLeader = new BrokerBags();

    private int count;

    CandidateIndex() {}

    /**
     * Files ({@code add}) or unfiles a candidate, with the column values it was filed with.
     *
     * @param preferredInIsr the first assigned replica is in the ISR
     * @param stuck          the first assigned replica is out of a non-empty ISR and the leader is in it
     * @param leaderActive   the leader's broker is active (read only when {@code stuck})
     */
    void file(
            int pos,
            boolean add,
            int preferred,
            int leader,
            boolean preferredInIsr,
            boolean stuck,
            boolean reassigning,
            boolean leaderActive) {
        count += add ? 1 : -1;
        set(all, pos, add);
        if (preferredInIsr) {
            set(toExamine, pos, add);
            if (!reassigning) {
                buckets.set(preferred, pos, add);
            } else {
                set(reassigningInIsr, pos, add);
            }
        } else if (stuck) {
            if (add) {
                stuckByLeader.add(leader, pos);
            } else {
                stuckByLeader.remove(leader, pos);
            }
            if (!leaderActive) {
                set(toExamine, pos, add);
                set(toEvaluate, pos, add);
            }
        } else {
            set(toExamine, pos, add);
            set(toEvaluate, pos, add);
        }
    }

    /** A broker became active or stopped being: the candidates it leads while out of their preferred's sync move. */
    void leaderActivityChanged(int broker, boolean active) {
        for (int k = 0, n = stuckByLeader.size(broker); k < n; k++) {
            int pos = stuckByLeader.at(broker, k);
            set(toExamine, pos, !active);
            set(toEvaluate, pos, !active);
        }
    }

    /** The partition at a position has this first replica now (its slot in the buckets' order). */
    void place(int pos, int previousPreferred, int preferred) {
        buckets.place(pos, previousPreferred, preferred);
    }

    /** The partition at a position is gone. */
    void forget(int pos, int preferred) {
        buckets.forget(pos, preferred);
    }

    private static void set(PositionSet s, int pos, boolean add) {
        if (add) {
            s.add(pos);
        } else {
            s.remove(pos);
        }
    }

    /** How many candidates there are. */
    public int count() {
        return count;
    }

    /** The first candidate at or after a position, or -1. */
    public int next(int from) {
        return all.next(from);
    }

    /** How many candidates are at positions up to and including {@code pos}. */
    public int countThrough(int pos) {
        return all.rankThrough(pos);
    }

    /** The first candidate at or after a position that is not known to change nothing, or -1. */
    public int nextToExamine(int from) {
        return toExamine.next(from);
    }

    /** The first candidate at or after a position to examine with its preferred replica out of the ISR, or -1. */
    public int nextToEvaluate(int from) {
        return toEvaluate.next(from);
    }

    /**
     * The first candidate at or after a position with its preferred replica in the ISR while under reassignment,
     * or -1. With {@link #nextToEvaluate} and the buckets, these make up {@link #nextToExamine}'s walk.
     */
    public int nextReassigningInIsr(int from) {
        return reassigningInIsr.next(from);
    }

    /** How many candidates the bucket of a preferred broker index holds. */
    public int bucketSize(int broker) {
        return buckets.size(broker);
    }

    /** The first slot of a broker's bucket at or after {@code fromSlot}, or -1; slots follow position order. */
    public int nextBucketSlot(int broker, int fromSlot) {
        return buckets.nextSlot(broker, fromSlot);
    }

    /** The first slot of a broker's list whose position is at or after {@code pos} (members or not). */
    public int firstBucketSlotAtOrAfter(int broker, int pos) {
        return buckets.firstSlotAtOrAfter(broker, pos);
    }

    /** How many members of a broker's bucket are at positions at or after {@code pos}. */
    public int bucketCountAtOrAfter(int broker, int pos) {
        return buckets.countFromSlot(broker, buckets.firstSlotAtOrAfter(broker, pos));
    }

    /** The position held in a slot of a broker's bucket. */
    public int bucketPosition(int broker, int slot) {
        return buckets.positionAt(broker, slot);
    }
}
