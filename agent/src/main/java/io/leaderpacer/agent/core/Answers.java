package io.leaderpacer.agent.core;

import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.utils.Timer;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A request's answers, resource by resource, waited for under one deadline. Kafka's Admin answers a request with a
 * future per resource; waiting for each in turn with the whole time-out would wait that long once per resource that
 * does not answer. The deadline is a {@link Timer} of Kafka's {@code Time}, as Kafka's own clients bound their waits,
 * so that a test can step it.
 *
 * @param answered the resources that answered, with their answer (null for a request that answers nothing)
 * @param failed   the others, with why: Kafka's refusal, or a {@link TimeoutException} when the deadline passed first
 */
public record Answers<K, V>(Map<K, V> answered, Map<K, Throwable> failed) {

    public Answers {
        answered = Collections.unmodifiableMap(new LinkedHashMap<>(answered));
        failed = Collections.unmodifiableMap(new LinkedHashMap<>(failed));
    }

    /** Waits for each future in turn, in the map's order, until {@code timer} expires. */
    public static <K, V> Answers<K, V> await(Map<K, KafkaFuture<V>> futures, Timer timer) throws InterruptedException {
        Map<K, V> answered = new LinkedHashMap<>();
        Map<K, Throwable> failed = new LinkedHashMap<>();
        for (Map.Entry<K, KafkaFuture<V>> e : futures.entrySet()) {
            timer.update();
            try {
                answered.put(e.getKey(), e.getValue().get(timer.remainingMs(), TimeUnit.MILLISECONDS));
            } catch (ExecutionException x) {
                failed.put(e.getKey(), x.getCause() != null ? x.getCause() : x);
            } catch (TimeoutException x) {
                failed.put(e.getKey(), x);
            }
        }
        return new Answers<>(answered, failed);
    }
}
