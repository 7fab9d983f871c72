package io.leaderpacer.simulator.pacing;

import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerSignals;
import io.leaderpacer.engine.pacing.CatchUpPacer;
import io.leaderpacer.engine.pacing.CatchUpState;
import io.leaderpacer.engine.pacing.PacingDecision;
import io.leaderpacer.engine.pacing.PacingMemory;
import io.leaderpacer.simulator.model.ClusterLayout;
import io.leaderpacer.simulator.model.FollowerThrottle;
import io.leaderpacer.simulator.model.ModelCluster;
import io.leaderpacer.simulator.model.Replication;
import io.leaderpacer.simulator.sim.EventQueue;
import io.leaderpacer.simulator.sim.IntList;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The agent's catch-up pacing loop on the model: every pacing interval it observes every broker, asks the engine's
 * {@link CatchUpPacer} for a decision with the previous decision's memory, and sets each decided rate as that broker's
 * follower throttle ({@link FollowerThrottle#setBrokerRate}); a broker no longer paced gets its own rate removed.
 *
 * <p>What it observes, as an agent can on unmodified Kafka:
 * <ul>
 *   <li>inactive: the broker's process is down, or it is fenced or shutting down;</li>
 *   <li>catching up: active with replicas it does not lead still behind (or, once paced, still outside their ISR),
 *       with bytes behind = what their leaders hold beyond it ({@code describeLogDirs});</li>
 *   <li>in sync otherwise;</li>
 *   <li>for a broker catching up, its flows since the previous look: what its lagging replicas fetched and what flowed
 *       into their partitions (what the stall detector judges);</li>
 *   <li>for a broker catching up, its lagging replicas of the partitions it is the preferred leader of (what a deadline
 *       counts);</li>
 *   <li>the canary ratio of {@link PacingCanary}.</li>
 * </ul>
 * As the agent's throttle plan, it lists only the paced broker's out-of-sync replicas, so that Kafka charges none of its
 * in-sync follower bytes to the quota ({@link FollowerThrottle#listsLaggingOnly}); with {@code preferred.first} on, the
 * decided rate goes to the broker's replicas of the partitions it is the preferred leader of and the others share the
 * min rate on top until those are in sync ({@link Replication#preferredFirst}), as the agent's leader-side shares and
 * follower-side rate split it.
 * The rate takes effect at the decision (the agent's config write is modelled as immediate).
 */
public final class SimulatedPacing {

    private final EventQueue queue;
    private final ClusterLayout layout;
    private final ModelCluster cluster;
    private final Replication replication;
    private final FollowerThrottle throttle;
    private final PacingCanary canary;
    private final Supplier<PacerConfig> config;
    private PacingMemory memory = PacingMemory.empty();
    /** Brokers this loop has set a rate on. */
    private final boolean[] paced;
    /** Per broker, the rate in force from the last look (bytes/s), 0 when none: for the report. */
    private final double[] rate;

    private long looks;
    /** The canary's ratio at the last look at which a broker caught up; NaN when none did or the canary gave none. */
    private double canaryRatio = Double.NaN;
    /** Per broker, at the previous look: whether it was catching up, and its lagging replicas' fetched and inflow. */
    private final boolean[] wasCatchingUp;

    private final double[] lastFetched;
    private final double[] lastInflow;
    private long lastLookMs = Long.MIN_VALUE;

    public SimulatedPacing(
            EventQueue queue,
            ClusterLayout layout,
            ModelCluster cluster,
            Replication replication,
            FollowerThrottle throttle,
            PacingCanary canary,
            Supplier<PacerConfig> config) {
        this.queue = queue;
        this.layout = layout;
        this.cluster = cluster;
        this.replication = replication;
        this.throttle = throttle;
        this.canary = canary;
        this.config = config;
        paced = new boolean[layout.brokers];
        rate = new double[layout.brokers];
        wasCatchingUp = new boolean[layout.brokers];
        lastFetched = new double[layout.brokers];
        lastInflow = new double[layout.brokers];
    }

    /** Schedules the first look at {@code atMs}; each look schedules the next one interval later. */
    public void start(long atMs) {
        queue.at(atMs, this::look);
    }

    private void look() {
        long now = queue.nowMs();
        CatchUpPacing settings = config.get().pacing();
        PacingDecision decision = CatchUpPacer.decide(signals(now), settings, memory, now);
        memory = decision.nextMemory();
        for (int b = 0; b < layout.brokers; b++) {
            OptionalLong r = decision.rateFor(b);
            if (r.isPresent()) {
                double others = settings.preferredFirst() ? Math.min(r.getAsLong(), settings.minRateBytes()) : 0;
                throttle.setBrokerRate(b, r.getAsLong() + others);
                throttle.listsLaggingOnly(b, true);
                replication.preferredFirst(
                        b, settings.preferredFirst() ? others / (r.getAsLong() + others) : Double.NaN);
                paced[b] = true;
                rate[b] = r.getAsLong();
            } else if (paced[b]) {
                throttle.setBrokerRate(b, Double.NaN);
                throttle.listsLaggingOnly(b, false);
                replication.preferredFirst(b, Double.NaN);
                paced[b] = false;
                rate[b] = 0;
            }
        }
        looks++;
        queue.after(settings.timing().intervalMs(), this::look);
    }

    private List<BrokerSignals> signals(long now) {
        List<BrokerSignals> out = new ArrayList<>();
        OptionalDouble ratio = canary.ratio(now);
        boolean anyCatchingUp = false;
        for (int b = 0; b < layout.brokers; b++) {
            if (!cluster.isAlive(b) || !cluster.isActive(b)) {
                out.add(BrokerSignals.inactive(b));
                wasCatchingUp[b] = false;
            } else if (replication.laggingCount(b) > 0 || (memory.brokers().contains(b) && hasReplicaOutOfIsr(b))) {
                BrokerSignals catching = new BrokerSignals(
                        b, CatchUpState.CATCHING_UP, OptionalLong.of(bytesBehind(b)), ratio, flow(b, now));
                out.add(catching.withPreferred(preferred(b)));
                wasCatchingUp[b] = true;
                anyCatchingUp = true;
            } else {
                out.add(BrokerSignals.inSync(b));
                wasCatchingUp[b] = false;
            }
            lastFetched[b] = replication.fetchedTotal(b);
            lastInflow[b] = replication.inflowTotal(b);
        }
        lastLookMs = now;
        canaryRatio = anyCatchingUp && ratio.isPresent() ? ratio.getAsDouble() : Double.NaN;
        return out;
    }

    /**
     * What broker {@code b}'s lagging replicas fetched and what flowed into their partitions since the previous look, as
     * the agent measures them from log sizes (unknown at the first look of a catch-up); none of its in-sync bytes count
     * toward its quota, since pacing lists only its lagging replicas.
     */
    private BrokerSignals.Flow flow(int b, long now) {
        if (!wasCatchingUp[b] || lastLookMs == Long.MIN_VALUE || now <= lastLookMs) {
            return BrokerSignals.Flow.UNKNOWN;
        }
        double seconds = (now - lastLookMs) / 1000.0;
        return BrokerSignals.Flow.of(
                (replication.fetchedTotal(b) - lastFetched[b]) / seconds,
                (replication.inflowTotal(b) - lastInflow[b]) / seconds,
                0);
    }

    /** What the leaders of broker {@code b}'s lagging replicas hold beyond it. */
    private long bytesBehind(int b) {
        IntList slots = replication.laggingSlots(b);
        double sum = 0;
        for (int i = 0; i < slots.size(); i++) {
            sum += Math.max(0, replication.lagBytes(slots.get(i)));
        }
        return (long) sum;
    }

    /**
     * Broker {@code b}'s lagging replicas of the partitions it is the preferred leader of, as the agent counts them for a
     * deadline: how many, how many preferred partitions it does not lead, their bytes behind and what flows into them.
     */
    private BrokerSignals.Preferred preferred(int b) {
        IntList slots = replication.laggingSlots(b);
        int partitions = 0;
        double behind = 0;
        double inflow = 0;
        for (int i = 0; i < slots.size(); i++) {
            int p = layout.slotPartition[slots.get(i)];
            if (cluster.preferred(p) == b) {
                partitions++;
                behind += Math.max(0, replication.lagBytes(slots.get(i)));
                inflow += layout.bytesPerSecond[p];
            }
        }
        return new BrokerSignals.Preferred(
                partitions,
                cluster.preferredCount(b) - cluster.preferredLed(b),
                OptionalLong.of((long) behind),
                OptionalDouble.of(inflow));
    }

    /** A replica {@code b} hosts and does not lead is outside its ISR (caught up, its join not committed yet). */
    private boolean hasReplicaOutOfIsr(int b) {
        for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
            int slot = layout.brokerSlots[i];
            if (cluster.leader(layout.slotPartition[slot]) != b && !cluster.slotInIsr(slot)) {
                return true;
            }
        }
        return false;
    }

    /** The follower rate pacing has set on broker {@code b}, bytes per second; 0 when none. */
    public double rate(int b) {
        return rate[b];
    }

    /**
     * What the canary gave at the last look while a broker caught up (its recent P99 over its steady P99); NaN when
     * no broker caught up at that look or the canary had no ratio. The agent logs the same ratio at each look that
     * acts on it (a run's {@code pacing.csv}), so the model's canary can be compared with the real one's.
     */
    public double canaryRatio() {
        return canaryRatio;
    }

    /** Looks taken so far. */
    public long looks() {
        return looks;
    }

    /** Whether a policy's configuration, or any of the scenario's configuration changes, turns pacing on. */
    public static boolean wanted(PacerConfig initial, List<PacerConfig> changed) {
        return initial.pacing().enabled()
                || changed.stream().anyMatch(c -> c.pacing().enabled());
    }
}
