package io.leaderpacer.agent.election;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.ReplicaOrderStep;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.core.RunTimings;
import io.leaderpacer.agent.kafka.AccessDenied;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.kafka.LeaderElector;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.ClusterState;
import io.leaderpacer.engine.cluster.ReadScope;
import io.leaderpacer.engine.cluster.SnapshotFollower;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.schedule.PeriodicTask;
import io.leaderpacer.engine.schedule.RunOutcome;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;

/**
 * One run of the task: read the cluster, apply the replica order, decide, elect; never throws.
 *
 * <p>Why apart from the agent ({@code PacerAgent}): the agent owns the lifecycle (start-up, schedule, history, listeners);
 * this owns what a run does and how its phases are timed, so both stay small. A failure in any phase becomes a
 * failed {@link RunRecord} with a scrubbed message and Kafka's five-minute retry delay; per-partition election
 * errors are outcomes, not failures.
 */
public final class RunCycle {

    private static final Logger LOG = LoggerFactory.getLogger(RunCycle.class);

    private final ClusterReader reader;
    private final ReplicaOrderStep orderStep;
    private final LeaderElector elector;
    /**
     * Source of the engine's {@code nowMs} and the record's timestamps (milliseconds) and of the phase timings
     * (nanoseconds).
     */
    private final Time time;

    private final SecretRedactor redactor;
    /**
     * The engine's state, kept across runs by diffing each read against it: a run replays only what changed since
     * the last read instead of rebuilding the state, and decides exactly as the read itself would.
     */
    private final SnapshotFollower follower = new SnapshotFollower();
    /**
     * What the next run may read instead of the whole cluster: the scope of the last run when it left work (a
     * gated or recovering broker, a capped run); null when the next run reads in full.
     */
    private SortedSet<String> scope;
    /** When the last full read started, on the agent clock: a full read comes at least every check interval. */
    private long lastFullReadAtMs = Long.MIN_VALUE;

    /** A run's record and the gate memory for the next run (unchanged for a dry or failed run). */
    public record Outcome(RunRecord record, BalancerMemory nextMemory) {}

    public RunCycle(
            ClusterReader reader,
            ReplicaOrderStep orderStep,
            LeaderElector elector,
            Time time,
            SecretRedactor redactor) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.orderStep = Objects.requireNonNull(orderStep, "orderStep");
        this.elector = Objects.requireNonNull(elector, "elector");
        this.time = Objects.requireNonNull(time, "time");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    /**
     * Runs once. A dry run skips the order step and the elections and keeps the memory.
     */
    public Outcome run(long sequence, PacerConfig config, BalancerMemory memory, boolean dry) {
        long startMs = time.milliseconds();
        long t0 = time.nanoseconds();
        long[] phases = new long[4];
        try {
            Optional<ClusterState> partial = readScope(config, startMs);
            ClusterSnapshot snapshot;
            if (partial.isPresent()) {
                snapshot = partial.get().snapshot();
            } else {
                snapshot = reader.read();
                lastFullReadAtMs = startMs;
            }
            long t1 = time.nanoseconds();
            phases[0] = t1 - t0;
            ClusterSnapshot ordered = dry ? snapshot : orderStep.apply(snapshot, config);
            long t2 = time.nanoseconds();
            phases[1] = t2 - t1;
            // A partial read is already followed; a full read, or an order step that changed the replicas, is followed
            // now.
            ClusterState state = partial.isPresent() && ordered == snapshot ? partial.get() : follower.follow(ordered);
            snapshot = ordered;
            ElectionDecision decision = PreferredLeaderBalancer.decide(state, config, memory, startMs);
            scope = decision.outcome() == RunOutcome.DONE
                    ? null
                    : ReadScope.topics(state, decision.recoveringBrokers(), config.deprioritizedBrokers());
            long t3 = time.nanoseconds();
            phases[2] = t3 - t2;
            List<ElectionResult> results = dry ? List.of() : elector.elect(decision.elections(), snapshot);
            phases[3] = time.nanoseconds() - t3;
            RunRecord record = new RunRecord(
                    sequence,
                    startMs,
                    time.milliseconds(),
                    dry,
                    config,
                    Optional.of(decision),
                    results,
                    RunRecord.leaderCounts(snapshot),
                    snapshot.partitions().size(),
                    timings(phases, partial.isPresent()),
                    Optional.empty(),
                    decision.nextRunDelayMs());
            return new Outcome(record, dry ? memory : decision.nextMemory());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            scope = null;
            return new Outcome(failed(sequence, startMs, dry, config, "interrupted", timings(phases, false)), memory);
        } catch (Exception e) {
            LOG.debug("run {} failed", sequence, redactor.scrubbed(e));
            // An ACL revoked while the agent runs: name the missing permission and how to grant it, not just Kafka's
            // text.
            String why = AccessDenied.explain(e)
                    .map(m -> redactor.scrub(m.getMessage()))
                    .orElseGet(() -> redactor.describe(e));
            scope = null;
            return new Outcome(failed(sequence, startMs, dry, config, why, timings(phases, false)), memory);
        }
    }

    private RunRecord failed(long seq, long startMs, boolean dry, PacerConfig config, String why, RunTimings timings) {
        return new RunRecord(
                seq,
                startMs,
                time.milliseconds(),
                dry,
                config,
                Optional.empty(),
                List.of(),
                Map.of(),
                0,
                timings,
                Optional.of(why),
                PeriodicTask.electPreferred(config).nextDelayMs(RunOutcome.FAILED));
    }

    /**
     * The followed state after a read of the last run's scope, if this run may read only that: the last run left
     * work, the check interval since the last full read has not passed, no deprioritized list is set, and the
     * follower can follow the read (no broker changed, no topic of the scope created or deleted). Empty when the run
     * must read in full. A topic created since the last full read is first seen by the next full read.
     */
    private Optional<ClusterState> readScope(PacerConfig config, long nowMs) throws Exception {
        // KIP-491's order step must see every partition with a deprioritized broker in front, a set the gate's
        // scope does not follow: with a deprioritized list, every run reads in full.
        if (scope == null
                || !config.deprioritizedBrokers().isEmpty()
                || nowMs - lastFullReadAtMs
                        >= PeriodicTask.electPreferred(config).periodMs()) {
            return Optional.empty();
        }
        Optional<ClusterState> state = follower.followPartial(reader.read(scope));
        if (state.isEmpty()) {
            LOG.debug(
                    "the cluster changed beyond the re-check's {} topics (a broker or a topic); reading it in full",
                    scope.size());
        }
        return state;
    }

    private static RunTimings timings(long[] phases, boolean partialRead) {
        return new RunTimings(phases[0], phases[1], phases[2], phases[3], partialRead);
    }
}
