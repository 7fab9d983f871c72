package io.leaderpacer.agent.pacing;

import io.leaderpacer.engine.pacing.BrokerPacing;

import java.util.List;
import java.util.Optional;

/**
 * One look of catch-up pacing, for the log, {@code /status}, metrics and the load test.
 *
 * @param atMs    when it looked (the agent's clock)
 * @param brokers per recovering broker, the rate decided and why, and how its catch-up goes
 * @param changes what it changed in the cluster this time
 * @param notes   what it saw and left alone (someone else's rate, a list set to {@code *}, ...)
 * @param problem why the look failed or pacing is off, if it did or is
 */
public record PacingReport(long atMs, List<BrokerPacing> brokers, List<String> changes, List<String> notes,
                           Optional<String> problem) {

    public PacingReport {
        brokers = List.copyOf(brokers);
        changes = List.copyOf(changes);
        notes = List.copyOf(notes);
    }

    static PacingReport failed(long atMs, String problem) {
        return new PacingReport(atMs, List.of(), List.of(), List.of(), Optional.of(problem));
    }
}
