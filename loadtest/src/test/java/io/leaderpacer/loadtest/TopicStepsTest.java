package io.leaderpacer.loadtest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: a large topic is created in requests that each stay under KRaft's limit, covering every partition. */
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
}
