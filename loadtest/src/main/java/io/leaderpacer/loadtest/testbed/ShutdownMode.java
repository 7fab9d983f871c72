package io.leaderpacer.loadtest.testbed;

/**
 * How the broker is taken down.
 *
 * <p>Why both: a crash (host or disk loss) leaves leadership to be moved by the controller when the session expires;
 * a controlled shutdown (a planned restart) moves it away first. Recovery looks the same once the broker is back.
 */
public enum ShutdownMode {
    /** SIGKILL: a crash. */
    KILL,
    /** SIGTERM: Kafka's controlled shutdown. */
    CONTROLLED
}
