package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionId;
import io.leaderpacer.engine.cluster.PartitionState;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.NotControllerException;
import org.apache.kafka.common.errors.PreferredLeaderNotAvailableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;

/** Kafka's per-partition election errors map to outcomes; whole-election behaviour is tested on a real cluster. */
class LeaderElectorTest {

    @Test
    void kafkaErrors_mapToOutcomes() {
        assertThat(LeaderElector.outcomeOf(new ElectionNotNeededException("x"))).isEqualTo(ElectionOutcome.NOT_NEEDED);
        assertThat(LeaderElector.outcomeOf(new PreferredLeaderNotAvailableException("x")))
                .isEqualTo(ElectionOutcome.PREFERRED_NOT_AVAILABLE);
        assertThat(LeaderElector.outcomeOf(new UnknownTopicOrPartitionException("x")))
                .isEqualTo(ElectionOutcome.UNKNOWN_PARTITION);
        assertThat(LeaderElector.outcomeOf(new TimeoutException("x"))).isEqualTo(ElectionOutcome.TIMED_OUT);
        assertThat(LeaderElector.outcomeOf(new NotControllerException("x"))).isEqualTo(ElectionOutcome.FAILED);
    }

    @Test
    void noLeaderDecision_isNeverSentToKafka() throws InterruptedException {
        // The engine's "no leader" (Kafka's rule when no replica can lead): the controller writes it itself.
        Admin refusing = (Admin) Proxy.newProxyInstance(
                Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                    throw new AssertionError("nothing may be sent, called " + method.getName());
                });
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .broker(BrokerState.active(0))
                .broker(BrokerState.fenced(1))
                .partition(PartitionState.of("t", 0, new int[] {0, 1}, new int[] {1}, 1))
                .build();
        Election noLeader = new Election(new PartitionId("t", 0), 1, PartitionState.NO_LEADER, 0);

        List<ElectionResult> results = new LeaderElector(refusing, Duration.ofSeconds(1), 10, SecretRedactor.none())
                .elect(List.of(noLeader), snapshot);

        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(ElectionOutcome.NOT_SENT_NOT_FIRST_REPLICA);
            assertThat(r.detail()).contains("no replica can lead");
        });
    }

    @Test
    void wrappedErrors_areUnwrapped() {
        assertThat(LeaderElector.outcomeOf(new ExecutionException(new TimeoutException("x"))))
                .isEqualTo(ElectionOutcome.TIMED_OUT);
    }
}
