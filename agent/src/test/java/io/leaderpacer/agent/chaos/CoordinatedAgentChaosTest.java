package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.dynamic.StateTopicSafety;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.testbed.PacedLoad;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.leaderpacer.agent.chaos.AgentChaosTest.BROKERS;
import static io.leaderpacer.agent.chaos.AgentChaosTest.CAP;
import static io.leaderpacer.agent.chaos.AgentChaosTest.KAFKA_TIMEOUT;
import static io.leaderpacer.agent.chaos.AgentChaosTest.MAX_AGENT_DELAY_MS;
import static io.leaderpacer.agent.chaos.AgentChaosTest.SETTLE_LIMIT;
import static io.leaderpacer.agent.chaos.AgentChaosTest.SLOW_FOLLOWER_BYTES_PER_SEC;
import static io.leaderpacer.agent.chaos.AgentChaosTest.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 5, "one active instance" under chaos: the {@link AgentChaosTest} cluster, traffic and seeded cluster
 * faults, run by TWO coordinated agent instances (one active, one standby, on one group and state topic), with
 * agent faults in the plan: the active instance is stopped (it leaves the group) or crashes (it stays in the group
 * until its session time-out expires), a standby takes over, and a fresh instance joins as the new standby.
 *
 * <p>After every run, whichever instance made it, the {@link InvariantChecks} hold, and across instances the
 * {@link FailoverChecks}: no two instances elect at the same time, a successor keeps its predecessor's pacing, and
 * every batch is within the cap. At the end every partition is back in its original order, led by its first
 * replica, and the state topic is empty.
 *
 * <p>Bounded: about a minute and a half with the default plan (3 cluster steps, 2 agent stops, 2 agent crashes).
 * The seed is printed first; {@code -Dchaos.seed=N} replays, {@code -Dchaos.seed=random} draws, {@code -Dchaos.faults=N}
 * sets the number of cluster steps. The figures go to standard output and
 * {@code target/coordinated-chaos-report.txt}.
 */
@Tag("cluster")
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class CoordinatedAgentChaosTest {

    /**
     * Cluster steps: the default seed's first three (a restart with a slow follower, the list set, another restart
     * with a slow follower) keep elections and reorders under way around the four fail-overs, which are this test's
     * subject; the cluster faults on their own are {@link AgentChaosTest}'s.
     */
    private static final int DEFAULT_FAULTS = 3;

    private static final int AGENT_STOPS = 2;
    private static final int AGENT_CRASHES = 2;
    private static final String STATE_TOPIC = "_chaos-coordinated-state";
    private static final String CONFIG_TOPIC = "_chaos-coordinated-config";
    private static final String GROUP = "chaos-agents";
    /** The broker's smallest allowed session time-out: a crash is noticed within seconds. */
    private static final Duration SESSION = Duration.ofSeconds(6);
    /**
     * The pacing a successor must keep. Shorter than a new active instance's confirmation wait (session / 3 = 2 s),
     * so in this test that wait, not the predecessor's summary, is what usually holds the successor back; the
     * summary's own effect is shown by {@code ActiveInstanceClusterTest} with an 8 s interval. A longer interval here
     * would stretch the test past its time budget.
     */
    private static final long THROTTLE_MS = 1_000;

    private static final PacerConfig POLICY = PacerConfig.fromMap(Map.of(
            "leader.imbalance.check.interval.seconds", "1",
            "leader.imbalance.election.algorithm", "wait-for-sync",
            "leader.imbalance.election.wait.for.sync.threshold.percent", "25",
            "leader.imbalance.election.wait.for.sync.max.wait.ms", "6000",
            "leader.imbalance.election.max.per.run", Integer.toString(CAP),
            "leader.imbalance.election.throttle.interval.ms", Long.toString(THROTTLE_MS)));
    /** Bound on a takeover: the session time-out, a rebalance and the fencing, on a loaded machine. */
    private static final Duration TAKEOVER_LIMIT = Duration.ofSeconds(60);

    private static final Path REPORT = Path.of("target", "coordinated-chaos-report.txt");

    @Test
    void activeInstanceStopsAndCrashes_standbyTakesOverWithTheSamePacing_neverTwoElectAtOnce_andEverythingReturns()
            throws Exception {
        long seed = AgentChaosTest.seed();
        int faults = Integer.getInteger("chaos.faults", DEFAULT_FAULTS);
        System.out.println("chaos seed " + seed + " (replay with -Dchaos.seed=" + seed + ")");
        ChaosSchedule plan = ChaosSchedule.planWithAgentFaults(seed, faults, BROKERS, AGENT_STOPS, AGENT_CRASHES);
        System.out.print(plan.describe());

        try (EmbeddedKafkaCluster cluster = AgentChaosTest.startCluster()) {
            Map<String, String> client = Map.of("bootstrap.servers", cluster.bootstrapServers());
            AgentChaosTest.createLoadTopic(cluster.admin());
            StateTopicSafety.ensureSafe(cluster.admin(), STATE_TOPIC, KAFKA_TIMEOUT);
            createInternalTopics(cluster.bootstrapServers());
            try (OrderStateStore checkerState =
                            new OrderStateStore(AgentChaosTest.compacted(cluster, client, STATE_TOPIC));
                    TopicConfigSource operator =
                            new TopicConfigSource(AgentChaosTest.compacted(cluster, client, CONFIG_TOPIC));
                    PacedLoad load = PacedLoad.builder(cluster.bootstrapServers(), TOPIC)
                            .recordsPerSecond(100)
                            .recordBytes(1024)
                            .build()
                            .start()) {
                Map<PartitionId, List<Integer>> originals = AgentChaosTest.awaitAssignments(cluster.admin());
                FailoverChecks failover = new FailoverChecks(CAP, THROTTLE_MS);
                CoordinatedInstance.Wiring wiring = new CoordinatedInstance.Wiring(
                        cluster.bootstrapServers(),
                        GROUP,
                        STATE_TOPIC,
                        CONFIG_TOPIC,
                        POLICY,
                        SESSION,
                        KAFKA_TIMEOUT,
                        MAX_AGENT_DELAY_MS,
                        new InvariantChecks(CAP, originals),
                        failover);
                FaultInjector injector = new FaultInjector(cluster, operator, SLOW_FOLLOWER_BYTES_PER_SEC, TOPIC);
                List<CoordinatedInstance> instances = new ArrayList<>();
                List<Long> takeoverMs = new ArrayList<>();
                long agentStops = 0;
                long agentCrashes = 0;
                long chaosMs = 0;
                long settleMs = -1;
                try {
                    CoordinatedInstance first = startInstance(instances, wiring);
                    await("the first instance active").atMost(TAKEOVER_LIMIT).until(first::isActive);
                    CoordinatedInstance second = startInstance(instances, wiring);
                    await("the second instance a standby of the first")
                            .atMost(TAKEOVER_LIMIT)
                            .until(() -> second.isStandbyOf(first.name()));
                    long start = System.nanoTime();
                    for (int i = 0; i < plan.faults().size(); i++) {
                        ChaosFault step = plan.faults().get(i);
                        System.out.println(
                                "chaos step " + (i + 1) + "/" + plan.faults().size() + ": " + step.describe());
                        if (step instanceof ChaosFault.AgentStop stop) {
                            takeoverMs.add(failOver(instances, wiring, stop.crash()));
                            if (stop.crash()) {
                                agentCrashes++;
                            } else {
                                agentStops++;
                            }
                            Thread.sleep(stop.pauseAfterMs());
                        } else {
                            injector.apply(step);
                        }
                        throwIfViolated(instances);
                    }
                    if (!injector.list().isEmpty()) {
                        injector.setList(Set.of());
                    }
                    long faultsDone = System.nanoTime();
                    chaosMs = (faultsDone - start) / 1_000_000;
                    await("every partition in its original order, led by its first replica, and the state topic empty")
                            .atMost(SETTLE_LIMIT)
                            .pollInterval(Duration.ofMillis(500))
                            .ignoreExceptions()
                            .until(() -> AgentChaosTest.restored(cluster.admin(), originals)
                                    && checkerState.load().records().isEmpty());
                    settleMs = (System.nanoTime() - faultsDone) / 1_000_000;
                } finally {
                    instances.forEach(CoordinatedInstance::close);
                    List<RunInvariantMonitor> m =
                            instances.stream().map(CoordinatedInstance::monitor).toList();
                    long takeovers = instances.stream()
                                    .mapToLong(CoordinatedInstance::takeovers)
                                    .sum()
                            - 1;
                    ChaosReport report = new ChaosReport(
                            new ChaosReport.Plan(seed, plan.faults().size()),
                            ChaosReport.Faults.of(injector),
                            new ChaosReport.AgentFaults(agentStops, agentCrashes, Math.max(0, takeovers)),
                            ChaosReport.Runs.of(m),
                            ChaosReport.Checks.of(m),
                            new ChaosReport.Timing(chaosMs, settleMs),
                            new ChaosReport.Load(load.sent(), load.failed()));
                    System.out.print(report.text());
                    System.out.println("instances started " + instances.size()
                            + "; takeover times (ms, from the stop or "
                            + "crash to the standby active) " + takeoverMs + "; hand-overs between electing instances "
                            + failover.handovers());
                    report.writeTo(REPORT);
                }
                throwIfViolated(instances);
                assertThat(injector.restarts()).as("restarts survived").isEqualTo(plan.restarts());
                assertThat(agentStops).as("agent stops").isEqualTo(plan.agentStops());
                assertThat(agentCrashes).as("agent crashes").isEqualTo(plan.agentCrashes());
                assertThat(instances.stream()
                                        .mapToLong(CoordinatedInstance::takeovers)
                                        .sum()
                                - 1)
                        .as("takeovers after the first instance became active")
                        .isGreaterThanOrEqualTo(agentStops + agentCrashes);
                assertThat(instances.stream()
                                .mapToLong(i -> i.monitor().settledRuns())
                                .sum())
                        .as("runs checked with nothing left to move")
                        .isGreaterThan(0);
                if (plan.restarts() > 0) {
                    assertThat(instances.stream()
                                    .mapToLong(i -> i.monitor().electionsMade())
                                    .sum())
                            .as("elections made bringing restarted brokers back")
                            .isGreaterThan(0);
                }
            }
        }
    }

    /**
     * Stops or crashes the active instance, waits until another one is active, then starts a fresh standby.
     *
     * @return milliseconds from the stop or crash to the successor holding the active role
     */
    private static long failOver(List<CoordinatedInstance> instances, CoordinatedInstance.Wiring wiring, boolean crash)
            throws Exception {
        await("exactly one active instance")
                .atMost(TAKEOVER_LIMIT)
                .until(() ->
                        instances.stream().filter(CoordinatedInstance::isActive).count() == 1);
        CoordinatedInstance active = instances.stream()
                .filter(CoordinatedInstance::isActive)
                .findFirst()
                .orElseThrow();
        long from = System.nanoTime();
        if (crash) {
            active.crash();
        } else {
            active.stop();
        }
        await("a standby active after " + (crash ? "the crash" : "the stop") + " of " + active.name())
                .atMost(TAKEOVER_LIMIT)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> instances.stream().anyMatch(i -> i != active && i.isActive()));
        long took = (System.nanoTime() - from) / 1_000_000;
        CoordinatedInstance successor = instances.stream()
                .filter(CoordinatedInstance::isActive)
                .findFirst()
                .orElseThrow();
        System.out.println("  " + successor.name() + " took over from " + active.name() + " in " + took + " ms");
        CoordinatedInstance fresh = startInstance(instances, wiring);
        await("the fresh instance a standby of " + successor.name())
                .atMost(TAKEOVER_LIMIT)
                .until(() -> fresh.isStandbyOf(successor.name()));
        return took;
    }

    private static CoordinatedInstance startInstance(
            List<CoordinatedInstance> instances, CoordinatedInstance.Wiring wiring) throws Exception {
        CoordinatedInstance instance = new CoordinatedInstance("agent-" + (instances.size() + 1), wiring);
        instances.add(instance);
        instance.start();
        return instance;
    }

    private static void throwIfViolated(List<CoordinatedInstance> instances) {
        instances.forEach(i -> i.monitor().throwIfViolated());
    }

    /**
     * Creates the group and transaction coordinators' topics before the originals are read: the agents' group and
     * fenced writer would otherwise create them mid-test, and the final check compares every partition's order.
     */
    private static void createInternalTopics(String bootstrapServers) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        "chaos-internal-topics"),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
        }
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "chaos-internal-topics"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.commitSync(Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(0)));
        }
    }
}
