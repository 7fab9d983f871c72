package io.leaderpacer.simulator.controller;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.EffectiveReplicaOrder;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.FailoverElection;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.simulator.model.ClusterLayout;
import io.leaderpacer.simulator.model.ModelCluster;
import io.leaderpacer.simulator.model.Replication;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;
import io.leaderpacer.simulator.sim.EventQueue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The KRaft controller, as far as leadership is concerned: fences and unfences brokers, commits
 * ISR changes, elects a new leader when one is lost ({@link FailoverElection}), and runs the
 * periodic preferred-leader task through {@link PreferredLeaderBalancer#decide} exactly as a
 * controller would, rescheduling it by {@link ElectionDecision#nextRunDelayMs()}.
 *
 * <p>During a controller failover nothing is committed: requests wait and are applied, in order,
 * by the new controller, which starts with {@link BalancerMemory#empty()} and schedules the
 * periodic task one full period after it becomes active (Kafka's
 * {@code PeriodicTaskControlManager.activate()}).
 */
public final class SimulatedController implements Replication.IsrRequests {

    private final EventQueue queue;
    private final ClusterLayout layout;
    private final ModelCluster cluster;
    private final Replication replication;
    private final InvariantChecker checker;
    private final RunObserver observer;
    private final long alterPartitionMs;
    private final long failoverMs;

    /** The configuration in force: the policy's, with the scenario's dynamic changes applied. */
    private PacerConfig config;
    /** The balancer's memory from the previous run; empty after a controller failover. */
    private BalancerMemory memory = BalancerMemory.empty();

    private boolean active = true;
    /** Incremented at each failover so that runs scheduled by the old controller are dropped. */
    private int epoch;
    /** Operations that arrived while no controller was active, in arrival order. */
    private final List<Runnable> waiting = new ArrayList<>();

    public SimulatedController(
            EventQueue queue,
            ClusterLayout layout,
            ModelCluster cluster,
            Replication replication,
            InvariantChecker checker,
            RunObserver observer,
            PacerConfig config,
            ModelParameters model) {
        this.queue = queue;
        this.layout = layout;
        this.cluster = cluster;
        this.replication = replication;
        this.checker = checker;
        this.observer = observer;
        this.config = config;
        this.alterPartitionMs = (long) model.get(ModelKey.ALTER_PARTITION_MS);
        this.failoverMs = (long) model.get(ModelKey.CONTROLLER_FAILOVER_MS);
        cluster.setOrder(EffectiveReplicaOrder.of(config.deprioritizedBrokers()));
    }

    public PacerConfig config() {
        return config;
    }

    public boolean isActive() {
        return active;
    }

    /** Schedules the first run of the periodic task {@code firstRunMs} from now. */
    public void start(long firstRunMs) {
        int e = epoch;
        queue.after(firstRunMs, () -> preferredRun(e));
    }

    /** Runs an operation now if a controller is active, else when the next one is. */
    public void submit(Runnable op) {
        if (active) {
            op.run();
        } else {
            waiting.add(op);
        }
    }

    // ------------------------------------------------------------------ periodic task

    private void preferredRun(int runEpoch) {
        if (runEpoch != epoch || !active) {
            return;
        }
        long now = queue.nowMs();
        ElectionDecision decision = PreferredLeaderBalancer.decide(cluster.engineState(), config, memory, now);
        checker.checkDecision(decision, config, now);
        for (Election e : decision.elections()) {
            int p = layout.indexOf(e.partition());
            cluster.setLeader(p, e.newLeader(), false);
        }
        memory = decision.nextMemory();
        checker.checkPartitions(now);
        observer.preferredRun(decision, now);
        queue.after(decision.nextRunDelayMs(), () -> preferredRun(runEpoch));
    }

    /** The active controller fails; a new one takes over after the failover time. */
    public void failover() {
        active = false;
        epoch++;
        long now = queue.nowMs();
        observer.controllerFailover(now);
        queue.after(failoverMs, () -> {
            active = true;
            memory = BalancerMemory.empty();
            List<Runnable> ops = new ArrayList<>(waiting);
            waiting.clear();
            ops.forEach(Runnable::run);
            int e = epoch;
            queue.after(config.checkIntervalSeconds() * 1000L, () -> preferredRun(e));
        });
    }

    /** A dynamic configuration change, effective from the next run. */
    public void changeConfig(Map<String, String> updates) {
        submit(() -> {
            PacerConfig next = config.withUpdates(updates);
            boolean orderChanged = !next.deprioritizedBrokers().equals(config.deprioritizedBrokers());
            config = next;
            if (orderChanged) {
                cluster.setOrder(EffectiveReplicaOrder.of(config.deprioritizedBrokers()));
            }
        });
    }

    // ------------------------------------------------------------------ brokers

    /** Controlled shutdown begins: leadership moves off the broker and it leaves every ISR it can. */
    public void beginControlledShutdown(int b) {
        submit(() -> {
            cluster.setBroker(b, cluster.isAlive(b), cluster.isFenced(b), true);
            removeFromPartitions(b);
        });
    }

    /** The broker is fenced (its shutdown completed, or its session expired). */
    public void fence(int b) {
        submit(() -> {
            cluster.setBroker(b, cluster.isAlive(b), true, false);
            removeFromPartitions(b);
        });
    }

    /** The restarted broker caught up with metadata: unfenced, it fetches and may lead again. */
    public void unfence(int b, Runnable afterUnfence) {
        submit(() -> {
            cluster.setBroker(b, cluster.isAlive(b), false, false);
            afterUnfence.run();
            int elected = 0;
            long now = queue.nowMs();
            for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
                int p = layout.slotPartition[layout.brokerSlots[i]];
                if (cluster.leader(p) == PartitionState.NO_LEADER) {
                    elected += electFailover(p, cluster.isrMask(p)) ? 1 : 0;
                    checker.checkPartition(p, now);
                }
            }
            if (elected > 0) {
                observer.failoverElections(elected, now);
            }
        });
    }

    private void removeFromPartitions(int b) {
        long now = queue.nowMs();
        int elected = 0;
        for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
            int slot = layout.brokerSlots[i];
            int p = layout.slotPartition[slot];
            int mask = cluster.isrMask(p);
            int bit = cluster.bitOf(slot);
            if ((mask & bit) != 0 && Integer.bitCount(mask) > 1) {
                mask &= ~bit;
            }
            int leader = cluster.leader(p);
            if (leader == b || leader == PartitionState.NO_LEADER) {
                elected += electFailover(p, mask) ? 1 : 0;
            } else {
                cluster.setIsr(p, mask);
            }
            checker.checkPartition(p, now);
        }
        if (elected > 0) {
            observer.failoverElections(elected, now);
        }
    }

    /** Elects a new leader for a partition whose leader is invalid, with the given ISR. */
    private boolean electFailover(int p, int isrMask) {
        PartitionState current = cluster.view(p);
        int[] isr = new int[Integer.bitCount(isrMask)];
        int k = 0;
        for (int j = 0; j < layout.replicaCount(p); j++) {
            if ((isrMask & (1 << j)) != 0) {
                isr[k++] = layout.replica(p, j);
            }
        }
        PartitionState candidate = current.withIsrAndLeader(isr, PartitionState.NO_LEADER);
        FailoverElection.Result r = FailoverElection.elect(
                candidate, cluster.brokersSnapshot(), cluster.order(), false, layout.uncleanByTopic[layout.topicOf[p]]);
        int previous = cluster.leader(p);
        if (!r.hasLeader()) {
            cluster.setIsr(p, isrMask);
            cluster.setLeader(p, PartitionState.NO_LEADER, false);
            return false;
        }
        if (r.unclean()) {
            // An unclean leader starts a new ISR of itself alone, as Kafka does.
            cluster.setIsr(p, 1 << positionOf(p, r.leader()));
        } else {
            cluster.setIsr(p, isrMask);
        }
        cluster.setLeader(p, r.leader(), r.unclean());
        replication.becameLeader(layout.slotOf(p, r.leader()));
        return previous != r.leader();
    }

    private int positionOf(int p, int broker) {
        for (int j = 0; j < layout.replicaCount(p); j++) {
            if (layout.replica(p, j) == broker) {
                return j;
            }
        }
        throw new IllegalStateException(broker + " is not a replica of " + layout.ids[p]);
    }

    // ------------------------------------------------------------------ ISR changes (AlterPartition)

    @Override
    public void join(int slot) {
        // Kafka refuses to add a fenced or shutting-down broker, and a leader must exist to ask.
        alterPartition(
                slot,
                true,
                (p, b) -> cluster.leader(p) == PartitionState.NO_LEADER
                        || !cluster.isActive(b)
                        || !replication.isCaughtUp(slot));
    }

    @Override
    public void shrink(int slot) {
        alterPartition(
                slot,
                false,
                (p, b) -> cluster.leader(p) == b
                        || replication.isCaughtUp(slot)
                        || !cluster.slotInIsr(slot)
                        || cluster.isrSize(p) <= 1);
    }

    /** Why the controller refuses an AlterPartition, as it stands when the request arrives. */
    @FunctionalInterface
    private interface Refusal {
        boolean refuses(int partition, int broker);
    }

    /**
     * An AlterPartition request for a replica slot: it arrives after {@code alterPartitionMs}, on the controller's
     * thread, where it ends the slot's request in flight and, unless refused, adds the replica to the ISR or takes it
     * out, and the partition is checked again.
     */
    private void alterPartition(int slot, boolean add, Refusal refusal) {
        queue.after(
                alterPartitionMs,
                () -> submit(() -> {
                    replication.requestDone(slot);
                    int p = layout.slotPartition[slot];
                    if (refusal.refuses(p, layout.slotBroker[slot])) {
                        return;
                    }
                    int isr = cluster.isrMask(p);
                    cluster.setIsr(p, add ? isr | cluster.bitOf(slot) : isr & ~cluster.bitOf(slot));
                    checker.checkPartition(p, queue.nowMs());
                }));
    }
}
