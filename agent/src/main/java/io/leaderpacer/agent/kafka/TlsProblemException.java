package io.leaderpacer.agent.kafka;

/**
 * The agent cannot talk to the cluster because of its TLS set-up (see {@link TlsDiagnosis}): final, since only an
 * edit of the properties file or of the brokers' certificates can fix it.
 *
 * <p>Why a type of its own: {@code pacer run} and {@code /status} print the message as it is, one line naming the
 * cause, the address and the setting, instead of Kafka's {@code SSL handshake failed}.
 */
public final class TlsProblemException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message the one-line diagnosis, already free of secrets
     * @param cause   what Kafka threw, with its messages scrubbed
     */
    public TlsProblemException(String message, Throwable cause) {
        super(message, cause);
    }
}
