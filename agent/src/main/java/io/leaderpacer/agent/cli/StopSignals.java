package io.leaderpacer.agent.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns SIGTERM and SIGINT into a clean stop of {@code pacer run}, so that the process exits 0 after closing
 * everything instead of the JVM's 143 or 130.
 *
 * <p>Why: systemd and Kubernetes stop a service with SIGTERM and read any status other than 0 as a failure. A
 * shutdown hook alone cannot help: once a signal has started the JVM's shutdown the exit status is already the
 * signal's. Handling the signal instead lets the command close its clients, leave its group and return 0.
 * The previous handlers are restored on {@link #close()}, so that a second signal after the stop (or a signal to a
 * later command in the same JVM) behaves as before.
 */
final class StopSignals implements AutoCloseable {

    /** The signals a service manager or a terminal sends to stop a process. */
    private static final String[] STOP_SIGNALS = {"TERM", "INT"};

    /** The handlers in place before, restored on close. */
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();

    private StopSignals() {}

    /** Runs {@code stop} on SIGTERM or SIGINT until closed; a signal the platform lacks is left alone. */
    static StopSignals install(Runnable stop) {
        StopSignals signals = new StopSignals();
        for (String name : STOP_SIGNALS) {
            try {
                Signal signal = new Signal(name);
                signals.previous.put(signal, Signal.handle(signal, s -> stop.run()));
            } catch (IllegalArgumentException e) {
                // Not supported here (or reserved by the JVM's options): the shutdown hook still closes everything.
            }
        }
        return signals;
    }

    @Override
    public void close() {
        previous.forEach((signal, handler) -> {
            try {
                Signal.handle(signal, handler);
            } catch (IllegalArgumentException e) {
                // Could not be restored: nothing better to do while stopping.
            }
        });
    }
}
