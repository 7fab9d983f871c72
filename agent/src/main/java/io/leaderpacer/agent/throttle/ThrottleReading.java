package io.leaderpacer.agent.throttle;

import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.protocol.Errors;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * What one look read of the replication throttle configs, resource by resource: the settings of those that answered,
 * and why each other did not.
 *
 * <p>Why apart from {@link ThrottleSettings}: one deleted topic or one broker that does not answer must not stop a
 * look from reading, changing or restoring the rest (a throttle left behind because an unrelated topic was deleted is
 * the failure this type exists to prevent).
 *
 * @param settings what the resources that answered report
 * @param failed   per resource that did not answer, why (a {@link java.util.concurrent.TimeoutException} when it did not
 *                 answer in time)
 */
public record ThrottleReading(ThrottleSettings settings, Map<ConfigResource, Throwable> failed) {

    public ThrottleReading {
        failed = Map.copyOf(failed);
    }

    /** Why the scope was not read, if it was not. */
    public Optional<Throwable> failure(BrokerScope scope) {
        return Optional.ofNullable(failed.get(scope.resource()));
    }

    /** Why the topic was not read, if it was not. */
    public Optional<Throwable> failure(String topic) {
        return Optional.ofNullable(failed.get(new ConfigResource(ConfigResource.Type.TOPIC, topic)));
    }

    /**
     * One line on a failure for an operator: its message, else Kafka's name for its error (never a Java class name).
     */
    public static String describe(Throwable t) {
        String m = t.getMessage();
        if (m != null && !m.isBlank()) {
            return m;
        }
        return t instanceof TimeoutException
                ? "timed out"
                : "Kafka answered " + Errors.forException(t).name();
    }

    /** Whether the topic no longer exists (deleted since the look read the cluster). */
    public boolean gone(String topic) {
        return failure(topic)
                .filter(t -> t instanceof UnknownTopicOrPartitionException)
                .isPresent();
    }
}
