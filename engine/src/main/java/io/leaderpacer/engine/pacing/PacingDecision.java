package io.leaderpacer.engine.pacing;

import java.util.List;
import java.util.OptionalLong;

/**
 * One pacing decision: per recovering broker, the rate to set (or none) and why; and the memory for the next.
 *
 * @param atMs       the time it was decided at, as given
 * @param brokers    the recovering brokers, ascending id; a broker not listed is not throttled
 * @param nextMemory what the next decision must be given
 */
public record PacingDecision(long atMs, List<BrokerPacing> brokers, PacingMemory nextMemory) {

    public PacingDecision {
        brokers = List.copyOf(brokers);
    }

    /** The rate to set for a broker, bytes per second; empty when it is not to be throttled. */
    public OptionalLong rateFor(int broker) {
        return brokers.stream()
                .filter(b -> b.broker() == broker)
                .findFirst()
                .map(BrokerPacing::rateBytes)
                .orElse(OptionalLong.empty());
    }

    /** Whether any broker is throttled. */
    public boolean throttling() {
        return brokers.stream().anyMatch(b -> b.rateBytes().isPresent());
    }
}
