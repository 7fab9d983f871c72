package io.leaderpacer.engine.cluster;

/**
 * A snapshot that cannot describe a real Kafka cluster: the engine refuses it rather than decide
 * from it. The message names the partition (or broker) and what is wrong.
 */
public final class InvalidSnapshotException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidSnapshotException(String message) {
        super(message);
    }
}
