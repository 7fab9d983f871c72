package io.leaderpacer.agent.kafka;

/**
 * The agent refuses to start because the cluster cannot be served safely: it runs in ZooKeeper mode, or it lacks a
 * Kafka API the agent's runs depend on.
 *
 * <p>Why a refusal and not a retry: neither changes while the agent waits, and running anyway would fail half-way
 * (a reorder without a way to undo it, elections that are never answered). The message is one line naming the
 * cluster's version and the missing piece.
 */
public final class UnsupportedClusterException extends Exception {

    private static final long serialVersionUID = 1L;

    public UnsupportedClusterException(String message) {
        super(message);
    }
}
