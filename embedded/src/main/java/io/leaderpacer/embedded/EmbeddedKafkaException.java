package io.leaderpacer.embedded;

/**
 * A failure of the embedded cluster (start, restart, topic creation, configuration change).
 *
 * <p>Unchecked because the callers (tests, the demo) cannot recover from a cluster that will not start or
 * change; the message names the operation and the broker or topic involved, the cause carries Kafka's error.
 */
public final class EmbeddedKafkaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public EmbeddedKafkaException(String message, Throwable cause) {
        super(message, cause);
    }

    public EmbeddedKafkaException(String message) {
        super(message);
    }
}
