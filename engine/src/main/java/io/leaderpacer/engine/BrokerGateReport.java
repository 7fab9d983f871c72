package io.leaderpacer.engine;

import java.util.Locale;

/**
 * One broker's line in a run's explanation: the counts the gate used, the verdict and why.
 *
 * @param broker              broker id
 * @param active              registered, unfenced, not shutting down
 * @param preferredPartitions partitions whose effective preferred replica is this broker
 * @param imbalanced          of them, those it does not lead
 * @param outOfSync           of them, those where it is not in the ISR
 * @param denominator         the ratio's denominator under the configured reading
 * @param numerator           the ratio's numerator under the configured reading
 * @param thresholdPercent    the configured threshold
 * @param phase               the verdict for this run
 * @param episodeStartMs      start of the current gating episode, or -1
 * @param gatedActiveMs       how long the max-wait clock has run, 0 when not gated
 * @param clearRuns           consecutive clear runs towards release (of 2)
 * @param elected             elections granted to it this run
 * @param skippedByGate       elections held back from it by the gate this run
 * @param deferredByThrottle  elections it could have had but the cap deferred
 * @param reason              one sentence an operator can read at 3 a.m.
 */
public record BrokerGateReport(
        int broker,
        boolean active,
        int preferredPartitions,
        int imbalanced,
        int outOfSync,
        int denominator,
        int numerator,
        double thresholdPercent,
        GatePhase phase,
        long episodeStartMs,
        long gatedActiveMs,
        int clearRuns,
        int elected,
        int skippedByGate,
        int deferredByThrottle,
        String reason) {

    /** The out-of-sync ratio in percent under the configured reading (0 with nothing to count). */
    public double outOfSyncPercent() {
        return denominator == 0 ? 0.0 : 100.0 * numerator / denominator;
    }

    /** A one-line explanation. */
    public String explain() {
        return String.format(Locale.ROOT, "broker %d: %s (%d/%d out of sync = %.2f%%, threshold %s%%) - %s",
                broker, phase, numerator, denominator, outOfSyncPercent(),
                io.leaderpacer.engine.config.PacerConfigFormat.percent(thresholdPercent), reason);
    }

    BrokerGateReport withRunCounts(int newElected, int newSkipped, int newDeferred) {
        return new BrokerGateReport(broker, active, preferredPartitions, imbalanced, outOfSync, denominator, numerator,
                thresholdPercent, phase, episodeStartMs, gatedActiveMs, clearRuns, newElected, newSkipped, newDeferred,
                reason);
    }
}
