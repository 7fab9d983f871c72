package io.leaderpacer.agent.core;

import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

class AnswersTest {

    @Test
    void eachResourceAnswers_failsWithKafkasCause_orTimesOutUnderTheOneDeadline() throws Exception {
        Map<String, KafkaFuture<String>> futures = new LinkedHashMap<>();
        futures.put("never", new KafkaFutureImpl<>());
        futures.put("answered", KafkaFuture.completedFuture("value"));
        KafkaFutureImpl<String> refused = new KafkaFutureImpl<>();
        refused.completeExceptionally(new PolicyViolationException("refused by a policy"));
        futures.put("refused", refused);
        futures.put("also never", new KafkaFutureImpl<>());

        long start = System.nanoTime();
        Answers<String, String> a = Answers.await(futures, Time.SYSTEM.timer(300));
        long tookMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(a.answered()).containsExactly(Map.entry("answered", "value"));
        assertThat(a.failed()).containsOnlyKeys("never", "refused", "also never");
        assertThat(a.failed().get("never")).isInstanceOf(TimeoutException.class);
        assertThat(a.failed().get("also never")).isInstanceOf(TimeoutException.class);
        assertThat(a.failed().get("refused")).isInstanceOf(PolicyViolationException.class);
        // One deadline for the whole request: the second resource that never answers does not wait again.
        assertThat(tookMs).as("waited once, not once per resource").isLessThan(600);
    }

    @Test
    void aRequestThatAnswersNothing_isAnsweredWithNull() throws Exception {
        Map<String, KafkaFuture<Void>> futures = Map.of("altered", KafkaFuture.completedFuture(null));

        Answers<String, Void> a = Answers.await(futures, Time.SYSTEM.timer(100));

        assertThat(a.answered()).containsKey("altered");
        assertThat(a.failed()).isEmpty();
    }
}
