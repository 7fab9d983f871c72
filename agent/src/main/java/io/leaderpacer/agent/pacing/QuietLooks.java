package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;

import java.util.List;
import java.util.Set;

/**
 * Whether a catch-up pacing look may read the brokers only instead of every partition.
 *
 * <p>Why: a look reads the whole cluster to find the replicas out of their ISR. At 15,000 partitions that read took
 * 1.2-2.2 s (evidence run 12b), every 2 s, under the lock the leadership runs take too, and on the brokers' metadata
 * path. Nearly all the time there is nothing to pace: every broker is up and every replica in its ISR. What starts a
 * recovery then is a broker stopping, starting or being fenced, and one {@code describeCluster} shows that. So after
 * a full look that found nothing to pace and left nothing of pacing's in the cluster, the next looks read the brokers
 * only. They read in full again as soon as a broker's state differs from the full look's, and when the full look is
 * {@link #FULL_LOOK_EVERY_MS} old: a replica that leaves its ISR while its broker stays up (a slow disk, a long pause)
 * is seen within that bound instead of within one look.
 *
 * <p>While it stays quiet, a look decides what a full look would: no broker is paced and nothing is changed, because
 * the full look saw every replica in its ISR and no broker has changed since.
 */
public final class QuietLooks {

    /** The longest a quiet period goes without a full read. */
    public static final long FULL_LOOK_EVERY_MS = 30_000;

    /** The brokers as the last quiet full look read them; null when the next look must read in full. */
    private Set<BrokerState> brokers;
    /** Whether that look found every registered broker active and every replica in its ISR (the canary's "steady"). */
    private boolean inSync;

    private long fullLookAtMs;

    QuietLooks() {}

    /**
     * Remembers a full look. It opens a quiet period only if it decided nothing, changed nothing, noted nothing and
     * left pacing owning nothing; any other look closes one.
     */
    void fullLook(ClusterSnapshot snapshot, PacingReport report, boolean ownsNothing, boolean snapshotInSync) {
        boolean quiet = ownsNothing
                && report.brokers().isEmpty()
                && report.changes().isEmpty()
                && report.notes().isEmpty()
                && report.problem().isEmpty();
        brokers = quiet ? Set.copyOf(snapshot.brokers().values()) : null;
        inSync = snapshotInSync;
        fullLookAtMs = report.atMs();
    }

    /** Whether a look now, with the brokers as just read, may stay quiet. */
    boolean mayStayQuiet(Set<BrokerState> brokersNow, long nowMs) {
        return brokers != null
                && nowMs >= fullLookAtMs
                && nowMs - fullLookAtMs < FULL_LOOK_EVERY_MS
                && brokers.equals(brokersNow);
    }

    /** Whether a quiet period is open: the next look reads the brokers first. */
    boolean open() {
        return brokers != null;
    }

    /** Whether the full look that opened the period found the cluster steady. */
    boolean inSync() {
        return inSync;
    }

    /** The registered brokers' ids, ascending, as the quiet period knows them. */
    List<Integer> brokerIds() {
        return brokers.stream().map(BrokerState::id).sorted().toList();
    }

    /** Closes the quiet period: the next look reads in full (a failure, a takeover, pacing turned off). */
    void close() {
        brokers = null;
    }
}
