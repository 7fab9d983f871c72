package io.leaderpacer.agent.coordination;

import io.leaderpacer.agent.AgentState;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.RunRecord;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Several coordinated instances on a real 3-broker cluster, in one JVM: exactly one acts, a standby takes over
 * with the same pacing when the active one leaves, and an instance whose producer was fenced can neither write
 * the state topic nor act. Each test has its own group and state topic.
 */
class ActiveInstanceClusterTest {

    /** The broker's smallest allowed session time-out: takeovers in these tests take seconds, not tens of seconds. */
    private static final Duration SESSION = Duration.ofSeconds(6);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder().brokers(3).build().start();
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
        PacerConfig paced = PacerConfig.fromMap(Map.of("leader.imbalance.check.interval.seconds", "1",
                "leader.imbalance.election.max.per.run", "1", "leader.imbalance.election.throttle.interval.ms", "8000"));

        PacerAgent a = agent(paced, election(group, stateTopic, "a", Map.of()));
        PacerAgent b = agent(paced, election(group, stateTopic, "b", Map.of()));
        try {
            a.start();
            await().atMost(WAIT).until(() -> a.state() == AgentState.ACTIVE);
            b.start();
            await().atMost(WAIT).until(() -> b.state() == AgentState.STANDBY
                    && "a".equals(b.coordination().orElseThrow().activeInstance()));
            await().atMost(WAIT).until(() -> a.history().stream().anyMatch(r -> r.results().size() == 1));
            // A standby joining does not move the role (sticky assignment), and the standby never runs.
            for (int i = 0; i < 8; i++) {
                assertThat(a.state()).isEqualTo(AgentState.ACTIVE);
                assertThat(b.state()).isEqualTo(AgentState.STANDBY);
                Thread.sleep(250);
            }
            assertThat(b.history()).isEmpty();
            assertThat(a.coordination().orElseThrow().takeovers()).isEqualTo(1);

            RunRecord lastCapped = a.history().stream().filter(r -> !r.results().isEmpty()).reduce((x, y) -> y).orElseThrow();
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
    void instanceFencedByItsSuccessor_cannotWriteTheStateTopicNorAct() throws Exception {
        String group = "zombie";
        String stateTopic = stateTopic(group);
        // The zombie stops polling; its consumer leaves the group after max.poll.interval.ms, as a paused process does.
        try (ActiveInstanceElection zombie = election(group, stateTopic, "zombie",
                Map.of(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "6000"));
             ActiveInstanceElection successor = election(group, stateTopic, "successor", Map.of())) {
            zombie.join();
            await().atMost(WAIT).until(() -> {
                zombie.poll();
                return zombie.isActive();
            });
            assertThatThrownBy(() -> zombie.checkActive("an election")).isInstanceOf(NotActiveException.class)
                    .hasMessageContaining("took over less than 2000 ms ago");
            await().atMost(WAIT).until(() -> zombie.firstRunDelayMs() == 0);
            zombie.checkActive("an election");
            zombie.stateWriter().write(stateTopic, Map.of("before", "zombie was active"));

            successor.join();
            await().atMost(WAIT).until(() -> {
                successor.poll();
                return successor.isActive();
            });
            assertThat(successor.predecessor()).get().extracting(HandoverSummary::instance).isEqualTo("zombie");
            successor.stateWriter().write(stateTopic, Map.of("after", "successor is active"));

            // The zombie still believes it is active (it has not polled), yet everything it tries is refused.
            assertThat(zombie.isActive()).isTrue();
            assertThatThrownBy(() -> zombie.stateWriter().write(stateTopic, Map.of("zombie-write", "must not appear")))
                    .isInstanceOf(NotActiveException.class).hasMessageContaining("deposed");
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
        try (ActiveInstanceElection active = election(group, stateTopic, "first", Map.of());
             ActiveInstanceElection standby = election(group, stateTopic, "second", Map.of())) {
            active.join();
            await().atMost(WAIT).until(() -> {
                active.poll();
                return active.isActive();
            });
            standby.join();
            await().atMost(WAIT).until(() -> {
                active.poll();
                standby.poll();
                return "first".equals(standby.status().activeInstance());
            });
            assertThat(active.isActive()).isTrue();
            assertThat(standby.role()).isEqualTo(InstanceRole.STANDBY);
            assertThatThrownBy(() -> standby.checkActive("electLeaders of 3 partition(s)")).isInstanceOf(NotActiveException.class)
                    .hasMessage("instance second is not the active instance of group refusing; electLeaders of 3 partition(s) not sent");
            assertThatThrownBy(() -> standby.stateWriter().write(stateTopic, Map.of("k", "v"))).isInstanceOf(NotActiveException.class);
            assertThat(readCommitted(stateTopic)).isEmpty();
        }
    }

    private static PacerAgent agent(PacerConfig policy, ActiveInstanceElection election) {
        return PacerAgent.builder(cluster.admin()).basePolicy(policy).requestTimeout(Duration.ofSeconds(10))
                .coordination(election).build();
    }

    private static ActiveInstanceElection election(String group, String stateTopic, String instance, Map<String, String> extra) {
        Map<String, Object> props = new java.util.HashMap<>(extra);
        props.put("bootstrap.servers", cluster.bootstrapServers());
        return ActiveInstanceElection.builder(cluster.admin(), props).groupId(group).topic(stateTopic).instanceId(instance)
                .sessionTimeout(SESSION).timeout(Duration.ofSeconds(15)).build();
    }

    /** Each test's own state topic; joining creates it with the safe settings. */
    private static String stateTopic(String group) {
        return "_leader-pacer-state-" + group;
    }

    private static Map<String, String> readCommitted(String topic) throws Exception {
        try (CompactedTopic t = new CompactedTopic(cluster.admin(), Map.of("bootstrap.servers", cluster.bootstrapServers()),
                topic, Duration.ofSeconds(15))) {
            return t.read();
        }
    }

    private static void restartBroker(int broker, String topic) {
        cluster.stopBroker(broker);
        cluster.startBroker(broker);
        await().atMost(WAIT).until(() -> describe(topic).stream().allMatch(p -> p.isr().size() == p.replicas().size()));
    }

    private static long imbalanced(String topic) throws Exception {
        return describe(topic).stream().filter(p -> p.leader() == null || p.leader().id() != p.replicas().get(0).id()).count();
    }

    private static List<TopicPartitionInfo> describe(String topic) throws Exception {
        return cluster.admin().describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions();
    }
}
