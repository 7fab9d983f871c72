package io.leaderpacer.simulator.run;

import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.simulator.controller.InvariantChecker;
import io.leaderpacer.simulator.controller.InvariantViolation;
import io.leaderpacer.simulator.controller.RunObserver;
import io.leaderpacer.simulator.controller.SimulatedController;
import io.leaderpacer.simulator.model.BrokerLoad;
import io.leaderpacer.simulator.model.ClusterLayout;
import io.leaderpacer.simulator.model.FetchSharing;
import io.leaderpacer.simulator.model.FollowerThrottle;
import io.leaderpacer.simulator.model.LatencyClasses;
import io.leaderpacer.simulator.model.LatencyModel;
import io.leaderpacer.simulator.model.LatencySink;
import io.leaderpacer.simulator.model.LeadershipGains;
import io.leaderpacer.simulator.model.ModelCluster;
import io.leaderpacer.simulator.model.Replication;
import io.leaderpacer.simulator.pacing.PacingCanary;
import io.leaderpacer.simulator.pacing.SimulatedPacing;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;
import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioEvent;
import io.leaderpacer.simulator.sim.EventQueue;
import io.leaderpacer.simulator.sim.IntList;
import io.leaderpacer.simulator.sim.RandomStreams;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One policy on one scenario from one seed: builds the modelled cluster, plays the scenario's
 * events and the load model's ticks on one logical clock, and measures what producers feel.
 *
 * <p>Single-threaded and free of wall-clock reads: the same scenario, policy and seed always give
 * the same {@link PolicyOutcome}, to the last bit.
 */
public final class Simulation implements RunObserver {

    private final Scenario scenario;
    private final PolicySpec policy;
    private final long seed;
    private final ProgressListener progress;
    private final ModelParameters model;
    private final RandomStreams random;
    private final EventQueue queue = new EventQueue();

    private final ClusterLayout layout;
    private final ModelCluster cluster;
    private final Replication replication;
    private final LeadershipGains gains;
    private final LatencyClasses classes;
    private final ReentryLog reentries;
    private final BrokerLoad load;
    private final FollowerThrottle throttle;
    private final FetchSharing sharing;
    private final LatencyModel latency;
    private final InvariantChecker checker;
    private final SimulationRecorder recorder;
    private final SimulatedController controller;
    /** Catch-up pacing, when the policy turns it on; its canary; and where latencies go (the recorder, and the canary). */
    private final SimulatedPacing pacing;

    private final PacingCanary canary;
    private final LatencySink sink;
    /** The controller's ISR requests, with the joining partition's latency taken out of its group until it commits. */
    private final Replication.IsrRequests isrRequests;

    private final long tickMs;
    private final long bucketMs;
    private final long lagTimeMaxMs;
    /** Restarted brokers: when each was last unfenced after a restart, and when it recovered. */
    private final Map<Integer, Long> unfencedAt = new TreeMap<>();

    private final Map<Integer, Long> recoveredAt = new TreeMap<>();
    private final int[] watched;
    /** The first restarted broker, whose CPU in catch-up is reported as the load test reports it; -1 if none. */
    private final int cpuBroker;

    private final CatchUpCpu catchUpCpu = new CatchUpCpu();
    private final String label;

    public Simulation(Scenario scenario, PolicySpec policy, long seed, ProgressListener progress) {
        this.scenario = scenario;
        this.policy = policy;
        this.seed = seed;
        this.progress = progress;
        this.model = scenario.model();
        this.random = new RandomStreams(seed);
        this.label = scenario.name() + " / " + policy.name();
        tickMs = model.tickMs();
        bucketMs = model.bucketMs();
        lagTimeMaxMs = (long) model.get(ModelKey.REPLICA_LAG_TIME_MAX_MS);

        layout = ClusterLayout.of(scenario, random);
        gains = new LeadershipGains(layout.brokers, (int) model.get(ModelKey.STORM_WINDOW_SECONDS));
        boolean[] restarted = restartedBrokers(scenario, layout);
        classes = new LatencyClasses(layout, gains, queue::nowMs, protectedPartitions(restarted, layout), restarted);
        reentries = new ReentryLog(classes, queue::nowMs);
        cluster = new ModelCluster(layout, reentries);
        classes.attachAll(cluster);
        reentries.attach(cluster, layout.partitions, layout.brokers);
        replication = new Replication(layout, cluster);
        load = new BrokerLoad(layout.brokers, model);
        throttle = new FollowerThrottle(
                layout.brokers,
                (int) model.get(ModelKey.REPLICATION_QUOTA_WINDOW_NUM),
                Math.round(model.get(ModelKey.REPLICATION_QUOTA_WINDOW_SIZE_SECONDS) * 1000));
        throttle.setClusterDefault(policy.replicationThrottleBytesPerSecond());
        sharing = new FetchSharing(layout, cluster, replication, model);
        latency = new LatencyModel(layout, cluster, replication, gains, sharing, model);
        checker = new InvariantChecker(layout, cluster);
        PacerConfig config = policy.config();
        watched = watchedBrokers(scenario, config);
        cpuBroker =
                scenario.restarts().isEmpty() ? -1 : scenario.restarts().get(0).broker();
        recorder = new SimulationRecorder(
                model.get(ModelKey.LATENCY_SIGMA),
                model.get(ModelKey.REQUEST_TIMEOUT_MS),
                scenario.steadyStateEndMs(),
                model.measurementWindow(),
                bucketMs,
                watched,
                layout.brokers,
                config.waitForSync());
        controller = new SimulatedController(queue, layout, cluster, replication, checker, this, config, model);
        if (SimulatedPacing.wanted(config, changedConfigs(scenario, config))) {
            canary = new PacingCanary(
                    model.get(ModelKey.LATENCY_SIGMA),
                    scenario.steadyStateEndMs(),
                    PacingCanary.SENDS_PER_LOOK,
                    random.stream("pacing-canary"));
            pacing = new SimulatedPacing(queue, layout, cluster, replication, throttle, canary, controller::config);
            sink = LatencySink.both(recorder, canary);
        } else {
            canary = null;
            pacing = null;
            sink = recorder;
        }
        isrRequests = new Replication.IsrRequests() {
            @Override
            public void join(int slot) {
                // From now until the ISR change commits, the leader waits for this replica's fetches (Kafka's
                // maximal ISR): its partition's latency is computed on its own until then.
                classes.detach(layout.slotPartition[slot]);
                controller.join(slot);
            }

            @Override
            public void shrink(int slot) {
                controller.shrink(slot);
            }
        };
    }

    /** The brokers the scenario restarts. */
    private static boolean[] restartedBrokers(Scenario scenario, ClusterLayout layout) {
        boolean[] restarted = new boolean[layout.brokers];
        for (ScenarioEvent.Restart r : scenario.restarts()) {
            restarted[r.broker()] = true;
        }
        return restarted;
    }

    /** Partitions whose (assigned) preferred leader is a broker the scenario restarts. */
    private static boolean[] protectedPartitions(boolean[] restarted, ClusterLayout layout) {
        boolean[] out = new boolean[layout.partitions];
        for (int p = 0; p < layout.partitions; p++) {
            out[p] = restarted[layout.replica(p, 0)];
        }
        return out;
    }

    /** The configurations the scenario's configuration changes set, each on top of the policy's. */
    private static List<PacerConfig> changedConfigs(Scenario scenario, PacerConfig config) {
        List<PacerConfig> out = new ArrayList<>();
        for (ScenarioEvent e : scenario.events()) {
            if (e instanceof ScenarioEvent.ConfigChange c) {
                out.add(config.withUpdates(c.updates()));
            }
        }
        return out;
    }

    /** Restarted brokers, and brokers any configuration puts on the deprioritized list. */
    private static int[] watchedBrokers(Scenario scenario, PacerConfig config) {
        TreeSet<Integer> ids = new TreeSet<>(config.deprioritizedBrokers());
        for (ScenarioEvent e : scenario.events()) {
            if (e instanceof ScenarioEvent.Restart r) {
                ids.add(r.broker());
            } else if (e instanceof ScenarioEvent.ConfigChange c) {
                ids.addAll(config.withUpdates(c.updates()).deprioritizedBrokers());
            }
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Runs to the scenario's end. */
    public PolicyOutcome run() {
        try {
            return runOrFail();
        } catch (InvariantViolation v) {
            throw new InvariantViolation("scenario " + scenario.name() + ", policy " + policy.name() + ", seed " + seed
                    + ": " + v.getMessage());
        }
    }

    private PolicyOutcome runOrFail() {
        queue.at(0, this::tick);
        List<ScenarioEvent> events = scenario.events();
        for (int i = 0; i < events.size(); i++) {
            ScenarioEvent e = events.get(i);
            int index = i;
            queue.at(e.atMs(), () -> apply(e, index));
        }
        // Where the periodic task's cycle stands when the simulation starts: it has been running since the
        // controller became active at some unknown moment (the same for every policy of a seed).
        long period = controller.config().checkIntervalSeconds() * 1000L;
        controller.start(random.stream("controller-phase").nextLong(period));
        if (pacing != null) {
            pacing.start(0);
        }
        queue.runUntil(scenario.endMs() - 1);
        checker.checkPartitions(queue.nowMs());
        cluster.refresh();

        long firstUnfence = recorder.windowStartMs() == Long.MIN_VALUE ? -1 : recorder.windowStartMs();
        long recovery = -1;
        if (!unfencedAt.isEmpty() && recoveredAt.keySet().containsAll(unfencedAt.keySet())) {
            long last = recoveredAt.values().stream()
                    .mapToLong(Long::longValue)
                    .max()
                    .orElse(-1);
            recovery = last - firstUnfence;
        }
        Map<Integer, Integer> finalLeaders = new TreeMap<>();
        for (int b : watched) {
            finalLeaders.put(b, cluster.leaderCount(b));
        }
        return new PolicyOutcome(
                policy,
                seed,
                new PolicyOutcome.KipFigures(
                        recorder.steadyP99Ms(), recorder.windowP99Ms(), recorder.timeouts(), firstUnfence, recovery),
                new PolicyOutcome.ControllerActivity(
                        recorder.runs(),
                        recorder.elections(),
                        recorder.maxElectionsInRun(),
                        recorder.skippedByGate(),
                        recorder.failoverElections(),
                        recorder.controllerFailovers()),
                new PolicyOutcome.End(finalLeaders, checker.checks()),
                recorder.series(),
                classFigures(firstUnfence));
    }

    private ClassFigures classFigures(long firstUnfence) {
        double[] prot = recorder.classP99Ms(true);
        double[] other = recorder.classP99Ms(false);
        long release = recorder.gateReleaseMs();
        Reentries timeline = reentries.result();
        return new ClassFigures(
                prot[0],
                prot[1],
                other[0],
                other[1],
                recorder.brokerP99Ms(),
                release == Long.MIN_VALUE || firstUnfence < 0 ? -1 : release - firstUnfence,
                timeline,
                recorder.windowP99ByRoleMs(),
                catchUpCpu.meanCores(timeline.lastSeconds()));
    }

    // ------------------------------------------------------------------ the load model's clock

    private void tick() {
        long now = queue.nowMs();
        double dt = tickMs / 1000.0;
        double[] capacity = load.catchUpCapacity();
        replication.step(
                now, tickMs, throttle.grants(capacity, sharing.responseUnits(), now, dt), lagTimeMaxMs, isrRequests);
        throttle.record(now, dt, replication);
        cluster.refresh();
        sharing.update(capacity, throttle);
        load.update(cluster, replication, gains, now);
        if (cpuBroker >= 0 && cluster.restartUnfencedAtMs(cpuBroker) != Long.MIN_VALUE) {
            catchUpCpu.record(now, cluster.restartUnfencedAtMs(cpuBroker), load.restartedBusyCores(cpuBroker));
        }
        latency.update(load, now);
        recorder.beginTick(now, load);
        if (canary != null) {
            canary.beginTick(now);
        }
        classes.recordTick(now, tickMs, latency, sink);
        long next = now + tickMs;
        if (next % bucketMs == 0 || next >= scenario.endMs()) {
            recorder.closeBucket(
                    Math.floorDiv(now, bucketMs) * bucketMs,
                    cluster,
                    replication,
                    throttle,
                    pacing == null ? Double.NaN : pacing.canaryRatio());
            progress.progress(label, Math.min(1.0, (double) next / scenario.endMs()));
        }
        if (next < scenario.endMs()) {
            queue.at(next, this::tick);
        }
    }

    // ------------------------------------------------------------------ scenario events

    private void apply(ScenarioEvent event, int index) {
        if (event instanceof ScenarioEvent.Restart r) {
            restart(r, index);
        } else if (event instanceof ScenarioEvent.FollowerStall s) {
            stall(s, index);
        } else if (event instanceof ScenarioEvent.ControllerFailover) {
            controller.failover();
        } else if (event instanceof ScenarioEvent.ConfigChange c) {
            controller.changeConfig(c.updates());
        }
    }

    private void restart(ScenarioEvent.Restart r, int index) {
        int b = r.broker();
        long restartAt;
        if (r.crash()) {
            stopProcess(b);
            long sessionMs = (long) model.get(ModelKey.SESSION_TIMEOUT_MS);
            long fenceAfter = Math.min(sessionMs, r.downMs());
            latency.setCrashFenceAt(b, queue.nowMs() + fenceAfter);
            for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
                classes.detach(layout.slotPartition[layout.brokerSlots[i]]);
            }
            queue.after(fenceAfter, () -> {
                latency.setCrashFenceAt(b, Long.MIN_VALUE);
                controller.fence(b);
            });
            restartAt = queue.nowMs() + r.downMs();
        } else {
            controller.beginControlledShutdown(b);
            long shutdownMs = (long) model.get(ModelKey.CONTROLLED_SHUTDOWN_MS);
            queue.after(shutdownMs, () -> {
                stopProcess(b);
                controller.fence(b);
            });
            restartAt = queue.nowMs() + shutdownMs + r.downMs();
        }
        long unfenceDelay = (long) model.get(ModelKey.UNFENCE_DELAY_MS);
        queue.at(restartAt, () -> {
            cluster.setBroker(b, true, true, false);
            queue.after(
                    unfenceDelay,
                    () -> controller.unfence(b, () -> {
                        long now = queue.nowMs();
                        replication.brokerResumed(b, now, r.diskReplaced(), stuckSlots(b, r.stuckPartitions(), index));
                        cluster.markRestartUnfenced(b, now);
                        reentries.unfenced(b, now);
                        unfencedAt.put(b, now);
                        recoveredAt.remove(b);
                        recorder.startRecoveryWindow(now);
                    }));
        });
    }

    private void stopProcess(int b) {
        cluster.setBroker(b, false, cluster.isFenced(b), false);
        replication.brokerStopped(b, queue.nowMs());
        throttle.brokerStopped(b);
    }

    /** Straggler replicas: some of the broker's preferred partitions, chosen by the seed. */
    private int[] stuckSlots(int b, int count, int eventIndex) {
        if (count == 0) {
            return new int[0];
        }
        IntList candidates = new IntList();
        for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
            int slot = layout.brokerSlots[i];
            if (cluster.preferred(layout.slotPartition[slot]) == b) {
                candidates.add(slot);
            }
        }
        return choose(candidates, count, random.stream("stuck-" + eventIndex));
    }

    private void stall(ScenarioEvent.FollowerStall s, int index) {
        IntList candidates = new IntList();
        int b = s.broker();
        for (int i = layout.brokerSlotStart[b]; i < layout.brokerSlotStart[b + 1]; i++) {
            int slot = layout.brokerSlots[i];
            if (cluster.leader(layout.slotPartition[slot]) != b) {
                candidates.add(slot);
            }
        }
        int count = (int) Math.round(s.fraction() * candidates.size());
        int[] slots = choose(candidates, count, random.stream("stall-" + index));
        replication.stall(slots, queue.nowMs());
        for (int slot : slots) {
            if (cluster.slotInIsr(slot)) {
                classes.detach(layout.slotPartition[slot]);
            }
        }
        queue.after(s.durationMs(), () -> replication.unstall(slots));
    }

    private static int[] choose(IntList candidates, int count, SplittableRandom random) {
        int n = candidates.size();
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = candidates.get(i);
        }
        int k = Math.min(count, n);
        for (int i = 0; i < k; i++) {
            int j = i + random.nextInt(n - i);
            int tmp = all[i];
            all[i] = all[j];
            all[j] = tmp;
        }
        int[] out = Arrays.copyOf(all, k);
        Arrays.sort(out);
        return out;
    }

    // ------------------------------------------------------------------ controller activity

    @Override
    public void preferredRun(ElectionDecision decision, long nowMs) {
        recorder.preferredRun(decision, nowMs);
        checkRecovery(nowMs);
    }

    @Override
    public void failoverElections(int count, long nowMs) {
        recorder.failoverElections(count, nowMs);
        checkRecovery(nowMs);
    }

    @Override
    public void controllerFailover(long nowMs) {
        recorder.controllerFailover(nowMs);
    }

    /** Marks restarted brokers that now lead their share of their preferred partitions. */
    private void checkRecovery(long nowMs) {
        if (unfencedAt.isEmpty()) {
            return;
        }
        cluster.refresh();
        double fraction = model.get(ModelKey.RECOVERED_FRACTION);
        List<Integer> done = new ArrayList<>();
        for (int b : unfencedAt.keySet()) {
            if (!recoveredAt.containsKey(b) && cluster.preferredLed(b) >= fraction * cluster.preferredCount(b)) {
                done.add(b);
            }
        }
        done.forEach(b -> recoveredAt.put(b, nowMs));
        if (!done.isEmpty() && recoveredAt.keySet().containsAll(unfencedAt.keySet())) {
            recorder.recovered(nowMs);
        }
    }
}
