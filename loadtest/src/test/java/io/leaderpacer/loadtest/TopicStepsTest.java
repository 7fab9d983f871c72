package io.leaderpacer.loadtest;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hand-worked: a large topic is created in requests that each stay under KRaft's limit, covering every partition, and
 * its creation waits for as many logs on each broker as the assignment gives it.
 */
class TopicStepsTest {

    @Test
    void kipSizedTopic_isCreatedInThreeRequests_coveringEveryPartitionOnce() {
        assertThat(TestTopics.steps(14_700, 5_000))
                .containsExactly(new int[] {0, 5_000}, new int[] {5_000, 10_000}, new int[] {10_000, 14_700});
    }

    @Test
    void smallTopic_isOneRequest() {
        assertThat(TestTopics.steps(240, 5_000)).containsExactly(new int[] {0, 240});
    }

    @Test
    void exactMultiple_hasNoEmptyLastRequest() {
        assertThat(TestTopics.steps(10_000, 5_000)).containsExactly(new int[] {0, 5_000}, new int[] {5_000, 10_000});
    }

    @Test
    void fivePartitionsOnFourBrokers_givesEachBrokerItsReplicaCount() {
        TestTopics topics = new TestTopics(null, List.of(0, 1, 2, 3), 1);

        // Partition p on brokers p, p+1, p+2 (mod 4): 0,1,2 | 1,2,3 | 2,3,0 | 3,0,1 | 0,1,2.
        assertThat(TestTopics.expectedReplicas(topics.assignment(5))).isEqualTo(Map.of(0, 4, 1, 4, 2, 4, 3, 3));
    }
}
