package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.ElectionOutcome;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.NotControllerException;
import org.apache.kafka.common.errors.PreferredLeaderNotAvailableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;

/** Kafka's per-partition election errors map to outcomes; whole-election behaviour is tested on a real cluster. */
class LeaderElectorTest {

    @Test
    void kafkaErrors_mapToOutcomes() {
        assertThat(LeaderElector.outcomeOf(new ElectionNotNeededException("x"))).isEqualTo(ElectionOutcome.NOT_NEEDED);
        assertThat(LeaderElector.outcomeOf(new PreferredLeaderNotAvailableException("x")))
                .isEqualTo(ElectionOutcome.PREFERRED_NOT_AVAILABLE);
        assertThat(LeaderElector.outcomeOf(new UnknownTopicOrPartitionException("x"))).isEqualTo(ElectionOutcome.UNKNOWN_PARTITION);
        assertThat(LeaderElector.outcomeOf(new TimeoutException("x"))).isEqualTo(ElectionOutcome.TIMED_OUT);
        assertThat(LeaderElector.outcomeOf(new NotControllerException("x"))).isEqualTo(ElectionOutcome.FAILED);
    }

    @Test
    void wrappedErrors_areUnwrapped() {
        assertThat(LeaderElector.outcomeOf(new ExecutionException(new TimeoutException("x")))).isEqualTo(ElectionOutcome.TIMED_OUT);
    }
}
