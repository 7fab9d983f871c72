package io.leaderpacer.engine.scenario;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The controller's preferred-election loop in miniature, on a scripted clock: before each run the
 * partitions whose scripted re-entry time has come get their preferred replica back in the ISR;
 * the run decides; its elections are applied to the snapshot; the clock advances by the
 * decision's {@code nextRunDelayMs()}.
 */
final class ScriptedRecovery {

    /** Never rejoins the ISR. */
    static final long NEVER = Long.MAX_VALUE;

    /** One run as the driver saw it. */
    record Run(long atMs, ClusterSnapshot before, ElectionDecision decision) {

        /** Partitions preferring the broker whose preferred replica is out of the ISR before the run. */
        long outOfSync(int broker) {
            return before.partitions().stream()
                    .filter(p -> p.replicaAt(0) == broker && !p.isrContains(broker))
                    .count();
        }

        int elections() {
            return decision.elections().size();
        }
    }

    /** Registered brokers; fixed for the scenario. */
    private final List<BrokerState> brokers;
    /** Current partition states, in candidate-iteration order. */
    private final List<PartitionState> partitions;
    /** Per partition: when its preferred replica rejoins the ISR ({@link #NEVER} for stragglers). */
    private final long[] rejoinAtMs;
    /** Partition position by id, to apply elections. */
    private final Map<PartitionId, Integer> positions = new HashMap<>();
    /** Every run so far. */
    private final List<Run> runs = new ArrayList<>();

    private final PacerConfig config;
    private BalancerMemory memory = BalancerMemory.empty();
    private long nowMs;

    ScriptedRecovery(
            List<BrokerState> brokers,
            List<PartitionState> partitions,
            long[] rejoinAtMs,
            PacerConfig config,
            long startMs) {
        if (partitions.size() != rejoinAtMs.length) {
            throw new IllegalArgumentException(
                    partitions.size() + " partitions but " + rejoinAtMs.length + " rejoin times");
        }
        this.brokers = List.copyOf(brokers);
        this.partitions = new ArrayList<>(partitions);
        this.rejoinAtMs = rejoinAtMs.clone();
        this.config = config;
        this.nowMs = startMs;
        for (int i = 0; i < partitions.size(); i++) {
            positions.put(partitions.get(i).id(), i);
        }
    }

    /** Runs until {@code untilMs} (exclusive) and returns every run made so far. */
    List<Run> runUntil(long untilMs) {
        while (nowMs < untilMs) {
            step();
        }
        return runs;
    }

    /** One run of the task. */
    Run step() {
        for (int i = 0; i < partitions.size(); i++) {
            PartitionState p = partitions.get(i);
            int preferred = p.replicaAt(0);
            if (rejoinAtMs[i] <= nowMs && !p.isrContains(preferred)) {
                int[] isr = p.isr();
                int[] grown = Arrays.copyOf(isr, isr.length + 1);
                grown[isr.length] = preferred;
                partitions.set(i, p.withIsrAndLeader(grown, p.leader()));
            }
        }
        ClusterSnapshot before = ClusterSnapshot.builder()
                .brokers(brokers)
                .partitions(partitions)
                .build();
        ElectionDecision d = PreferredLeaderBalancer.decide(before, config, memory, nowMs);
        for (Election e : d.elections()) {
            int at = positions.get(e.partition());
            partitions.set(at, partitions.get(at).withLeader(e.newLeader()));
        }
        Run run = new Run(nowMs, before, d);
        runs.add(run);
        memory = d.nextMemory();
        nowMs += d.nextRunDelayMs();
        return run;
    }

    /** Partitions preferring the broker that it leads now. */
    long ledByPreferred(int broker) {
        return partitions.stream()
                .filter(p -> p.replicaAt(0) == broker && p.leader() == broker)
                .count();
    }
}
