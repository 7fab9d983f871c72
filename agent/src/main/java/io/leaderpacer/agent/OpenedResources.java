package io.leaderpacer.agent;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * What a process opened, closed newest first, each exactly once, whichever thread closes (a command's own thread
 * or its shutdown hook).
 *
 * <p>Why: the agent's parts depend on each other in the order they are opened (the agent on its state store, the
 * store on the election's producer, all of them on the Admin client), so they must close in reverse; and a
 * failure to close one part must not leave the others open.
 */
public final class OpenedResources implements AutoCloseable {

    /** Newest first. */
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    /** Told about a part that failed to close (the others still close). */
    private final Consumer<Exception> onCloseFailure;

    /** Resources whose close failures are ignored (shutting down: nothing useful to do about them). */
    public OpenedResources() {
        this(e -> {});
    }

    public OpenedResources(Consumer<Exception> onCloseFailure) {
        this.onCloseFailure = onCloseFailure;
    }

    /** Registers a resource just opened and returns it. */
    public <T extends AutoCloseable> T add(T resource) {
        synchronized (opened) {
            opened.push(resource);
        }
        return resource;
    }

    /** Closes everything registered so far, newest first; safe to call twice and from several threads. */
    @Override
    public void close() {
        while (true) {
            AutoCloseable next;
            synchronized (opened) {
                next = opened.poll();
            }
            if (next == null) {
                return;
            }
            try {
                next.close();
            } catch (Exception e) {
                onCloseFailure.accept(e);
            }
        }
    }
}
