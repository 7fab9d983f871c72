package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.core.ReplicaOrderStep;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.Objects;
import java.util.Optional;

/**
 * A {@link ReplicaOrderStep} that hands on to the real one and keeps the snapshot it returned: the snapshot the
 * engine then decides on.
 *
 * <p>Why: the invariants are about the snapshot a decision was made on (its ISRs, its active brokers, its replica
 * order after the KIP-491 reorder), which the agent's {@code RunRecord} does not carry. The agent calls the step
 * and then its listeners on the same run thread, runs never overlap, so the listener of a run takes exactly that
 * run's snapshot with {@link #take()}.
 */
final class RecordingOrderStep implements ReplicaOrderStep {

    /** The real step (the KIP-491 reorder with its write-ahead state). */
    private final ReplicaOrderStep delegate;
    /** What the delegate returned in the current run; null before, after a failed step, or once taken. */
    private volatile ClusterSnapshot decided;

    RecordingOrderStep(ReplicaOrderStep delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public ClusterSnapshot apply(ClusterSnapshot snapshot, PacerConfig config) throws Exception {
        decided = null;
        ClusterSnapshot out = delegate.apply(snapshot, config);
        decided = out;
        return out;
    }

    /** The snapshot of the run that just ended, if its step completed; cleared, so no later run sees it. */
    Optional<ClusterSnapshot> take() {
        ClusterSnapshot out = decided;
        decided = null;
        return Optional.ofNullable(out);
    }
}
