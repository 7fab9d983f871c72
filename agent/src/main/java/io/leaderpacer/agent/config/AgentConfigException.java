package io.leaderpacer.agent.config;

/**
 * An agent properties file (or one of its values) the agent refuses.
 *
 * <p>Why: a user error must be reported as one clear line naming the file, the key, the value and what is
 * allowed, never as a stack trace; the commands print {@link #getMessage()} and exit with a usage code.
 * Messages never contain a secret value (they are built from redacted values).
 */
public final class AgentConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public AgentConfigException(String message) {
        super(message);
    }

    public AgentConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
