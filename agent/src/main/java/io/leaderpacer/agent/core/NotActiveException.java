package io.leaderpacer.agent.core;

/**
 * Thrown instead of sending a mutation when this instance is not, or can no longer prove it is, the active one.
 *
 * <p>Why unchecked: it must travel through code that knows nothing about coordination (the reorder step, the
 * elector) and end the run; the run's record then says why nothing was sent.
 */
public final class NotActiveException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public NotActiveException(String message) {
        super(message);
    }

    public NotActiveException(String message, Throwable cause) {
        super(message, cause);
    }
}
