package io.leaderpacer.agent.dynamic;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The state topic's safety rules, hand-worked case by case on described topics (no cluster): each rule alone,
 * the limits of each range, and all problems named at once.
 */
class StateTopicSafetyTest {

    private static final List<Integer> THREE_BROKERS = List.of(0, 1, 2);

    @Test
    void topicAsTheAgentCreatesIt_hasNoProblem() {
        assertThat(StateTopicSafety.problems(
                        topic(Map.of(0, List.of(0, 1, 2)), StateTopicSafety.creationConfigs(3), THREE_BROKERS)))
                .isEmpty();
        assertThat(StateTopicSafety.problems(
                        topic(Map.of(0, List.of(0)), StateTopicSafety.creationConfigs(1), List.of(0))))
                .as("one broker: RF 1 and min.insync.replicas 1 are all there can be")
                .isEmpty();
        assertThat(StateTopicSafety.problems(
                        topic(Map.of(0, List.of(1, 0)), StateTopicSafety.creationConfigs(2), List.of(0, 1))))
                .isEmpty();
    }

    @Test
    void creationConfigs_areCompactedWithMinInsyncTwoAndNoUncleanElection() {
        assertThat(StateTopicSafety.creationConfigs(5))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "cleanup.policy",
                        "compact",
                        "min.insync.replicas",
                        "2",
                        "unclean.leader.election.enable",
                        "false"));
        assertThat(StateTopicSafety.creationConfigs(1)).containsEntry("min.insync.replicas", "1");
        assertThat(StateTopicSafety.replicationFor(5)).isEqualTo(3);
        assertThat(StateTopicSafety.replicationFor(2)).isEqualTo(2);
        assertThat(StateTopicSafety.replicationFor(0)).isEqualTo(1);
    }

    @Test
    void deletePolicy_isOneProblemWithTheRetentionAndTheConfigsCommand() {
        List<TopicSafetyProblem> problems = StateTopicSafety.problems(safeWith("cleanup.policy", "delete"));
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.setting()).isEqualTo("cleanup.policy");
            assertThat(p.actual()).isEqualTo("'delete'");
            assertThat(p.why()).contains("604800000 ms");
            assertThat(p.fix())
                    .isEqualTo("kafka-configs.sh --bootstrap-server b0:9092 --entity-type topics "
                            + "--entity-name _state --alter --add-config cleanup.policy=compact");
        });
    }

    @Test
    void compactAndDelete_isSafeOnlyWithInfiniteRetention() {
        Map<String, String> both = new HashMap<>(StateTopicSafety.creationConfigs(3));
        both.put("cleanup.policy", "compact,delete");
        both.put("retention.ms", "-1");
        both.put("retention.bytes", "-1");
        assertThat(StateTopicSafety.problems(topic(Map.of(0, List.of(0, 1, 2)), both, THREE_BROKERS)))
                .isEmpty();

        both.put("retention.bytes", "1048576");
        assertThat(StateTopicSafety.problems(topic(Map.of(0, List.of(0, 1, 2)), both, THREE_BROKERS)))
                .singleElement()
                .satisfies(
                        p -> assertThat(p.actual()).contains("compact,delete").contains("1048576"));
    }

    @Test
    void twoPartitions_isAProblemThatExplainsKafkaCannotRemovePartitions() {
        StateTopicDescription d = topic(
                Map.of(0, List.of(0, 1, 2), 1, List.of(1, 2, 0)), StateTopicSafety.creationConfigs(3), THREE_BROKERS);
        assertThat(StateTopicSafety.problems(d)).singleElement().satisfies(p -> {
            assertThat(p.setting()).isEqualTo("partitions");
            assertThat(p.actual()).isEqualTo("2");
            assertThat(p.required()).isEqualTo("1");
            assertThat(p.fix())
                    .contains("cannot remove partitions")
                    .contains("kafka-topics.sh --bootstrap-server b0:9092 --delete --topic _state");
        });
    }

    @Test
    void replicationBelowMinOfThreeAndBrokers_givesAReassignmentAddingLiveBrokers() {
        Map<String, String> configs = new HashMap<>(StateTopicSafety.creationConfigs(3));
        configs.put("min.insync.replicas", "1");
        StateTopicDescription d = topic(Map.of(0, List.of(2)), configs, THREE_BROKERS);
        assertThat(StateTopicSafety.problems(d))
                .as("RF 1 of 3, and min.insync 1 judged against the RF once fixed")
                .extracting(TopicSafetyProblem::setting)
                .containsExactly("replication factor", "min.insync.replicas");
        TopicSafetyProblem rf = StateTopicSafety.problems(d).get(0);
        assertThat(rf.actual()).isEqualTo("1");
        assertThat(rf.required()).startsWith("at least 3");
        assertThat(rf.fix())
                .contains("kafka-reassign-partitions.sh --bootstrap-server b0:9092 --execute")
                .contains(
                        "{\"version\":1,\"partitions\":[{\"topic\":\"_state\",\"partition\":0,\"replicas\":[2,0,1]}]}");

        assertThat(StateTopicSafety.problems(
                        topic(Map.of(0, List.of(0, 1)), StateTopicSafety.creationConfigs(2), List.of(0, 1, 2, 3))))
                .extracting(TopicSafetyProblem::setting)
                .containsExactly("replication factor");
    }

    @Test
    void minInsync_mustBeBetweenTwoAndTheReplicationFactor() {
        assertThat(StateTopicSafety.problems(safeWith("min.insync.replicas", "1")))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.required()).isEqualTo("between 2 and 3 (the replication factor)");
                    assertThat(p.fix()).endsWith("--add-config min.insync.replicas=2");
                });
        assertThat(StateTopicSafety.problems(safeWith("min.insync.replicas", "3")))
                .isEmpty();
        assertThat(StateTopicSafety.problems(safeWith("min.insync.replicas", "4")))
                .singleElement()
                .satisfies(p -> assertThat(p.why()).contains("every write fails"));
        assertThat(StateTopicSafety.problems(safeWith("min.insync.replicas", "two")))
                .hasSize(1);
    }

    @Test
    void uncleanElectionEnabled_isAProblemWhereverTheValueComesFrom() {
        assertThat(StateTopicSafety.problems(safeWith("unclean.leader.election.enable", "true")))
                .singleElement()
                .satisfies(p -> assertThat(p.fix()).endsWith("--add-config unclean.leader.election.enable=false"));
        Map<String, String> brokerDefault = new HashMap<>(StateTopicSafety.creationConfigs(3));
        brokerDefault.remove("unclean.leader.election.enable");
        assertThat(StateTopicSafety.problems(topic(Map.of(0, List.of(0, 1, 2)), brokerDefault, THREE_BROKERS)))
                .as("not reported = Kafka's default false")
                .isEmpty();
    }

    @Test
    void everythingWrong_namesEveryProblemInOneMessage() {
        Map<String, String> configs = Map.of(
                "cleanup.policy",
                "delete",
                "min.insync.replicas",
                "1",
                "unclean.leader.election.enable",
                "true",
                "retention.ms",
                "86400000");
        StateTopicDescription d = topic(Map.of(0, List.of(1), 1, List.of(2)), configs, THREE_BROKERS);
        UnsafeTopicException e = new UnsafeTopicException("_state", StateTopicSafety.problems(d));

        assertThat(e.problems())
                .extracting(TopicSafetyProblem::setting)
                .containsExactly(
                        "partitions",
                        "replication factor",
                        "cleanup.policy",
                        "min.insync.replicas",
                        "unclean.leader.election.enable");
        assertThat(e.getMessage())
                .startsWith("State topic _state is not safe")
                .contains("nothing was written")
                .contains("5 problems:")
                .contains("1. partitions is 2, must be 1")
                .contains("2. replication factor is 1, must be at least 3")
                .contains("3. cleanup.policy is 'delete', must be 'compact'")
                .contains("86400000 ms")
                .contains("4. min.insync.replicas is 1, must be between 2 and 3")
                .contains("5. unclean.leader.election.enable is true, must be false")
                .contains("--command-config");
    }

    private static StateTopicDescription safeWith(String key, String value) {
        Map<String, String> configs = new HashMap<>(StateTopicSafety.creationConfigs(3));
        configs.put(key, value);
        return topic(Map.of(0, List.of(0, 1, 2)), configs, THREE_BROKERS);
    }

    private static StateTopicDescription topic(
            Map<Integer, List<Integer>> replicas, Map<String, String> configs, List<Integer> brokers) {
        return new StateTopicDescription("_state", replicas, configs, brokers, "b0:9092");
    }
}
