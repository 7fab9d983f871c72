package io.leaderpacer.agent.coordination;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.leaderpacer.agent.CapturedLogs;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.NotActiveException;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Several coordinated instances on a real 3-broker cluster, in one JVM: exactly one acts, a standby takes over
 * with the same pacing when the active one leaves, the active one keeps its gate memory while a standby joins,
 * and an instance whose producer was fenced can neither write the state topic nor act. Each test has its own
 * group and state topic.
 */
@Tag("cluster")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ActiveInstanceClusterTest {

    /** The broker's smallest allowed session time-out: takeovers in these tests take seconds, not tens of seconds. */
    private static final Duration SESSION = Duration.ofSeconds(6);

    private static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * What each leader serves a restarted broker per second, and the backlog it must fetch: together they keep it
     * out of sync (gated) for a minute or more, longer than the gate-memory test needs.
     */
    private static final long CATCH_UP_BYTES_PER_SEC = 10_000;

    private static final long BACKLOG_BYTES = 4_800_000;

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder()
                .brokers(3)
                // Small fetches and a short quota window: with the defaults a restarted broker takes megabytes in its
                // first fetch, before a replication throttle has measured anything, and catches up at once.
                .serverProperty("replica.fetch.max.bytes", "16384")
                .serverProperty("replica.fetch.response.max.bytes", "65536")
                .serverProperty("replication.quota.window.num", "2")
                .build()
                .start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void twoInstances_exactlyOneActs_andTheStandbyTakesOverWithTheSamePacingWhenItLeaves() throws Exception {
        String group = "handover";
        String stateTopic = stateTopic(group);
        cluster.createTopic("handover-data", 6, 3);
        restartBroker(1, "handover-data");
        long imbalanced = imbalanced("handover-data");
        assertThat(imbalanced).isGreaterThanOrEqualTo(2);
        // One election per run and 8 s between capped runs: the pacing a successor must keep.
        PacerConfig paced = PacerConfig.fromMap(Map.of(
                "leader.imbalance.check.interval.seconds",
                "1",
                "leader.imbalance.election.max.per.run",
                "1",
                "leader.imbalance.election.throttle.interval.ms",
                "8000"));

        PacerAgent a = agent(paced, election(group, stateTopic, "a", Map.of()));
        PacerAgent b = agent(paced, election(group, stateTopic, "b", Map.of()));
        try {
            a.start();
            await().atMost(WAIT).until(() -> a.state() == AgentState.ACTIVE);
            b.start();
            await().atMost(WAIT)
                    .until(() -> b.state() == AgentState.STANDBY
                            && "a".equals(b.coordination().orElseThrow().activeInstance()));
            await().atMost(WAIT)
                    .until(() -> a.history().stream().anyMatch(r -> r.results().size() == 1));
            // A standby joining does not move the role (sticky assignment), and the standby never runs.
            for (int i = 0; i < 8; i++) {
                assertThat(a.state()).isEqualTo(AgentState.ACTIVE);
                assertThat(b.state()).isEqualTo(AgentState.STANDBY);
                Thread.sleep(250);
            }
            assertThat(b.history()).isEmpty();
            assertThat(a.coordination().orElseThrow().takeovers()).isEqualTo(1);

            RunRecord lastCapped = a.history().stream()
                    .filter(r -> !r.results().isEmpty())
                    .reduce((x, y) -> y)
                    .orElseThrow();
            assertThat(lastCapped.decision().orElseThrow().moreWork()).isTrue();
            long leftAt = System.currentTimeMillis();
            a.close();

            await().atMost(WAIT).until(() -> b.state() == AgentState.ACTIVE);
            long tookOverMs = System.currentTimeMillis() - leftAt;
            CoordinationStatus bs = b.coordination().orElseThrow();
            assertThat(bs.takeovers()).isEqualTo(1);
            assertThat(bs.activeInstance()).isEqualTo("b");
            await().atMost(WAIT).until(() -> !b.history().isEmpty());
            RunRecord first = b.history().get(0);
            assertThat(first.succeeded()).as(first.summary()).isTrue();
            // The successor's first run waits out the predecessor's throttle interval (same clock here).
            assertThat(first.startedAtMs()).isGreaterThanOrEqualTo(lastCapped.finishedAtMs() + 8000);
            assertThat(first.results()).hasSizeLessThanOrEqualTo(1);
            System.out.printf("graceful hand-over: standby active %d ms after the active one closed%n", tookOverMs);
        } finally {
            b.close();
            a.close();
        }
    }

    @Test
    void activeKeepsItsRoleWhileAStandbyJoins_keepsTheGatingEpisode_andOnlyATakeoverStartsANewOne() throws Exception {
        String group = "kept-memory";
        String stateTopic = stateTopic(group);
        String topic = "kept-memory-data";
        int restarted = 2;
        double threshold = 5;
        cluster.createTopic(topic, 12, 3);
        PacerConfig waitForSync = PacerConfig.fromMap(Map.of(
                "leader.imbalance.election.algorithm",
                "wait-for-sync",
                "leader.imbalance.election.wait.for.sync.threshold.percent",
                Double.toString(threshold),
                "leader.imbalance.check.interval.seconds",
                "1"));
        PacerAgent a = agent(waitForSync, election(group, stateTopic, "a", Map.of()));
        PacerAgent b = agent(waitForSync, election(group, stateTopic, "b", Map.of()));
        try (CapturedLogs logs = CapturedLogs.of(ActiveRole.class.getName(), Level.INFO)) {
            // The restarted broker rejoins active but out of sync on every partition of the topic, for a minute or
            // more.
            setLeaderThrottle(restarted, topic, CATCH_UP_BYTES_PER_SEC);
            cluster.stopBroker(restarted);
            RecoveryScenario.writeBacklog(cluster, topic, 12, BACKLOG_BYTES);
            cluster.startBroker(restarted);

            a.start();
            await().atMost(WAIT)
                    .until(() -> a.state() == AgentState.ACTIVE
                            && gateReport(a.lastRun(), restarted)
                                    .filter(r -> r.verdict().phase() == GatePhase.GATED)
                                    .isPresent());
            BrokerGateReport held = gateReport(a.lastRun(), restarted).orElseThrow();
            assertThat(held.ratio().percent()).as(held.explain()).isGreaterThan(threshold);
            assertThat(held.verdict().episodeStartMs()).as(held.explain()).isNotNegative();

            // A standby that the test polls by hand joins; then, while it does not poll, a second one joins. The eager
            // sticky assignment takes the role from the active instance and the rebalance waits for the silent standby
            // to rejoin: the role is away over several ticks (otherwise it usually returns inside one poll), then
            // returns.
            RunRecord afterRebalance;
            try (ActiveRole slow = election(group, stateTopic, "slow", Map.of())) {
                slow.join();
                await().atMost(WAIT).until(() -> {
                    slow.poll();
                    return slow.role() == InstanceRole.STANDBY
                            && "a".equals(slow.status().activeInstance());
                });
                b.start();
                await().atMost(WAIT).until(() -> a.state() == AgentState.STANDBY);
                long roleAwayAtMs = System.currentTimeMillis();
                await().atMost(WAIT).until(() -> {
                    slow.poll();
                    return a.state() == AgentState.ACTIVE && b.state() == AgentState.STANDBY;
                });
                assertThat(keptTheRole(logs, "a", group, roleAwayAtMs))
                        .as("the role came back to a without a takeover")
                        .isPresent();
                await().atMost(WAIT).until(() -> a.history().stream().anyMatch(r -> r.startedAtMs() >= roleAwayAtMs));
                afterRebalance = a.history().stream()
                        .filter(r -> r.startedAtMs() >= roleAwayAtMs)
                        .findFirst()
                        .orElseThrow();
            }
            BrokerGateReport kept =
                    gateReport(Optional.of(afterRebalance), restarted).orElseThrow();
            assertThat(kept.verdict().phase()).as(kept.explain()).isEqualTo(GatePhase.GATED);
            assertThat(kept.verdict().episodeStartMs())
                    .as("the gating episode survives the rebalance (memory kept)")
                    .isEqualTo(held.verdict().episodeStartMs());
            assertThat(a.coordination().orElseThrow().takeovers()).isEqualTo(1);
            assertThat(b.history()).isEmpty();

            // A real takeover starts an empty memory, as a controller failover does: a new episode.
            a.close();
            await().atMost(WAIT)
                    .until(() -> b.state() == AgentState.ACTIVE && !b.history().isEmpty());
            assertThat(b.coordination().orElseThrow().takeovers()).isEqualTo(1);
            BrokerGateReport rebuilt =
                    gateReport(Optional.of(b.history().get(0)), restarted).orElseThrow();
            assertThat(rebuilt.verdict().phase()).as(rebuilt.explain()).isEqualTo(GatePhase.GATED);
            assertThat(rebuilt.verdict().episodeStartMs())
                    .as("the successor's memory starts empty")
                    .isGreaterThan(kept.verdict().episodeStartMs())
                    .isEqualTo(b.history().get(0).startedAtMs());
        } finally {
            b.close();
            a.close();
            setLeaderThrottle(restarted, topic, null);
            cluster.admin().deleteTopics(List.of(topic)).all().get();
            rebalanceAll();
        }
    }

    @Test
    void instanceFencedByItsSuccessor_cannotWriteTheStateTopicNorAct() throws Exception {
        String group = "zombie";
        String stateTopic = stateTopic(group);
        // The zombie stops polling; its consumer leaves the group after max.poll.interval.ms, as a paused process does.
        try (ActiveRole zombie = election(
                        group, stateTopic, "zombie", Map.of(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "6000"));
                ActiveRole successor = election(group, stateTopic, "successor", Map.of())) {
            zombie.join();
            await().atMost(WAIT).until(() -> {
                zombie.poll();
                return zombie.isActive();
            });
            assertThatThrownBy(() -> zombie.checkActive("an election"))
                    .isInstanceOf(NotActiveException.class)
                    .hasMessageContaining("took over less than 2000 ms ago");
            await().atMost(WAIT).until(() -> zombie.firstRunDelayMs() == 0);
            zombie.checkActive("an election");
            zombie.stateWriter().write(stateTopic, Map.of("before", "zombie was active"));

            successor.join();
            await().atMost(WAIT).until(() -> {
                successor.poll();
                return successor.isActive();
            });
            assertThat(successor.predecessor())
                    .get()
                    .extracting(HandoverSummary::instance)
                    .isEqualTo("zombie");
            successor.stateWriter().write(stateTopic, Map.of("after", "successor is active"));

            // The zombie still believes it is active (it has not polled), yet everything it tries is refused.
            assertThat(zombie.isActive()).isTrue();
            assertThatThrownBy(() -> zombie.stateWriter().write(stateTopic, Map.of("zombie-write", "must not appear")))
                    .isInstanceOf(NotActiveException.class)
                    .hasMessageContaining("deposed");
            assertThat(zombie.role()).isEqualTo(InstanceRole.STANDBY);
            assertThat(zombie.status().depositions()).isEqualTo(1);
            assertThatThrownBy(() -> zombie.checkActive("an election")).isInstanceOf(NotActiveException.class);

            assertThat(readCommitted(stateTopic)).containsOnlyKeys("before", "after");
            await().atMost(WAIT).until(() -> successor.firstRunDelayMs() == 0);
            successor.checkActive("an election");
        }
    }

    @Test
    void standby_refusesEveryAction() throws Exception {
        String group = "refusing";
        String stateTopic = stateTopic(group);
        try (ActiveRole active = election(group, stateTopic, "first", Map.of());
                ActiveRole standby = election(group, stateTopic, "second", Map.of())) {
            active.join();
            await().atMost(WAIT).until(() -> {
                active.poll();
                return active.isActive();
            });
            standby.join();
            await().atMost(WAIT).until(() -> {
                active.poll();
                standby.poll();
                // The standby's join makes the group rebalance: the active one gives the role up and gets it back.
                return active.isActive() && "first".equals(standby.status().activeInstance());
            });
            assertThat(standby.role()).isEqualTo(InstanceRole.STANDBY);
            assertThatThrownBy(() -> standby.checkActive("electLeaders of 3 partition(s)"))
                    .isInstanceOf(NotActiveException.class)
                    .hasMessage(
                            "instance second is not the active instance of group refusing; electLeaders of 3 partition(s) not sent");
            assertThatThrownBy(() -> standby.stateWriter().write(stateTopic, Map.of("k", "v")))
                    .isInstanceOf(NotActiveException.class);
            assertThat(readCommitted(stateTopic)).isEmpty();
        }
    }

    private static PacerAgent agent(PacerConfig policy, ActiveRole election) {
        return PacerAgent.builder(cluster.admin())
                .basePolicy(policy)
                .requestTimeout(Duration.ofSeconds(10))
                .coordination(election)
                .build();
    }

    private static ActiveRole election(String group, String stateTopic, String instance, Map<String, String> extra) {
        Map<String, Object> props = new HashMap<>(extra);
        props.put("bootstrap.servers", cluster.bootstrapServers());
        return ActiveRole.builder(cluster.admin(), props)
                .groupId(group)
                .topic(stateTopic)
                .instanceId(instance)
                .sessionTimeout(SESSION)
                .timeout(Duration.ofSeconds(15))
                .build();
    }

    /** Each test's own state topic; joining creates it with the safe settings. */
    private static String stateTopic(String group) {
        return "_leader-pacer-state-" + group;
    }

    private static Map<String, String> readCommitted(String topic) throws Exception {
        try (CompactedTopic t = new CompactedTopic(
                cluster.admin(),
                Map.of("bootstrap.servers", cluster.bootstrapServers()),
                topic,
                Duration.ofSeconds(15))) {
            return t.read();
        }
    }

    /** The broker's line in the run's decision, if the run decided and the broker is in the snapshot. */
    private static Optional<BrokerGateReport> gateReport(Optional<RunRecord> run, int broker) {
        return run.flatMap(RunRecord::decision).map(d -> d.broker(broker));
    }

    /** The election's log line saying this instance resumed the role after a rebalance in which no other one acted. */
    private static Optional<ILoggingEvent> keptTheRole(CapturedLogs logs, String instance, String group, long sinceMs) {
        String line = "active: instance " + instance + " kept the active role through a rebalance of group " + group;
        return logs.events().stream()
                .filter(e ->
                        e.getTimeStamp() >= sinceMs && e.getFormattedMessage().equals(line))
                .findFirst();
    }

    /**
     * Sets (or, with null, removes) Kafka's leader-side replication throttle towards replicas out of the ISR: the rate
     * on every broker but {@code follower}, every replica of the topic throttled. Unlike the follower's own
     * throttle, which a restarting broker loads only after its fetchers have started (and may catch up in that
     * moment), the leaders' throttle is in force before the follower fetches anything.
     */
    private static void setLeaderThrottle(int follower, String topic, Long bytesPerSec) {
        List<Integer> leaders =
                cluster.brokerIds().stream().filter(id -> id != follower).toList();
        if (bytesPerSec == null) {
            RecoveryScenario.clearLeaderThrottle(cluster, leaders, topic);
        } else {
            RecoveryScenario.setLeaderThrottle(cluster, leaders, topic, bytesPerSec);
        }
    }

    /** Waits for full ISRs everywhere, then elects every preferred leader: the next test starts balanced. */
    private static void rebalanceAll() {
        await().atMost(WAIT)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> {
                    var topics = cluster.admin()
                            .describeTopics(cluster.admin().listTopics().names().get())
                            .allTopicNames()
                            .get();
                    if (!topics.values().stream()
                            .flatMap(t -> t.partitions().stream())
                            .allMatch(p -> p.isr().size() == p.replicas().size())) {
                        return false;
                    }
                    cluster.admin()
                            .electLeaders(ElectionType.PREFERRED, null)
                            .partitions()
                            .get();
                    return topics.values().stream()
                            .flatMap(t -> t.partitions().stream())
                            .allMatch(p -> p.leader() != null
                                    && p.leader().id() == p.replicas().get(0).id());
                });
    }

    private static void restartBroker(int broker, String topic) {
        cluster.stopBroker(broker);
        cluster.startBroker(broker);
        await().atMost(WAIT)
                .until(() -> describe(topic).stream()
                        .allMatch(p -> p.isr().size() == p.replicas().size()));
    }

    private static long imbalanced(String topic) throws Exception {
        return describe(topic).stream()
                .filter(p -> p.leader() == null
                        || p.leader().id() != p.replicas().get(0).id())
                .count();
    }

    private static List<TopicPartitionInfo> describe(String topic) throws Exception {
        return cluster.admin()
                .describeTopics(List.of(topic))
                .allTopicNames()
                .get()
                .get(topic)
                .partitions();
    }
}
