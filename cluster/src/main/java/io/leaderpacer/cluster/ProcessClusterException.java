package io.leaderpacer.cluster;

/**
 * A failure of a process cluster: a node that would not format, exited during start-up or did not become ready
 * in time.
 *
 * <p>Unchecked because the callers (tests, the demo, the load test) cannot recover from a cluster that will not
 * start; the message names the node and ends with the last lines of its log, which is where Kafka says why.
 */
public final class ProcessClusterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProcessClusterException(String message) {
        super(message);
    }

    public ProcessClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
