package io.leaderpacer.engine;

import io.leaderpacer.engine.config.PacerConfigFormat;

import java.util.Locale;

/**
 * One broker's line in a run's explanation: what its preferred partitions look like, the ratio the gate compared,
 * the verdict and why, and what the run gave it.
 *
 * <p>Why groups: each part is one question an operator asks of the line (how many, how far out of sync, gated or
 * not, how many elections), and a reader such as {@code /status} takes the parts it shows as they are.
 *
 * @param broker     broker id
 * @param active     registered, unfenced, not shutting down
 * @param partitions the partitions whose effective preferred replica is this broker
 * @param ratio      the out-of-sync ratio under the configured reading, and the threshold it was compared with
 * @param verdict    the gate's verdict for this run, where its episode stands, and why
 * @param run        the elections the run granted it, held back from it and deferred
 */
public record BrokerGateReport(
        int broker, boolean active, PartitionCounts partitions, Ratio ratio, Verdict verdict, RunCounts run) {

    /**
     * The broker's preferred partitions.
     *
     * @param preferredPartitions partitions whose effective preferred replica is this broker
     * @param imbalanced          of them, those it does not lead
     * @param outOfSync           of them, those where it is not in the ISR
     */
    public record PartitionCounts(int preferredPartitions, int imbalanced, int outOfSync) {}

    /**
     * The gate's comparison.
     *
     * @param numerator        the ratio's numerator under the configured reading
     * @param denominator      the ratio's denominator under the configured reading
     * @param thresholdPercent the configured threshold
     */
    public record Ratio(int numerator, int denominator, double thresholdPercent) {

        /** The out-of-sync ratio in percent (0 with nothing to count). */
        public double percent() {
            return denominator == 0 ? 0.0 : 100.0 * numerator / denominator;
        }

        /** Strictly over the threshold: with a threshold of 0, one out-of-sync partition is over. */
        boolean over() {
            return denominator > 0 && numerator * 100.0 > thresholdPercent * denominator;
        }
    }

    /**
     * The gate's verdict for one run.
     *
     * @param phase          the verdict
     * @param episodeStartMs start of the current gating episode, or -1
     * @param gatedActiveMs  how long the max-wait clock has run, 0 when not gated
     * @param clearRuns      consecutive clear runs towards release (of 2)
     * @param reason         one sentence an operator can read at 3 a.m.
     */
    public record Verdict(GatePhase phase, long episodeStartMs, long gatedActiveMs, int clearRuns, String reason) {

        /** The verdict of every broker under {@code immediate}. */
        static final Verdict NOT_APPLICABLE =
                new Verdict(GatePhase.NOT_APPLICABLE, -1, 0, 0, "algorithm is immediate: no gate");
    }

    /**
     * What the run did for the broker.
     *
     * @param elected            elections granted to it this run
     * @param skippedByGate      elections held back from it by the gate this run
     * @param deferredByThrottle elections it could have had but the cap deferred
     */
    public record RunCounts(int elected, int skippedByGate, int deferredByThrottle) {

        /** Before the selection, or for a broker the run's tables do not know. */
        public static final RunCounts NONE = new RunCounts(0, 0, 0);
    }

    /** Whether partitions preferring this broker are held back this run. */
    public boolean blocksElections() {
        return verdict.phase().blocksElections();
    }

    /** A one-line explanation. */
    public String explain() {
        return String.format(
                Locale.ROOT,
                "broker %d: %s (%d/%d out of sync = %.2f%%, threshold %s%%) - %s",
                broker,
                verdict.phase(),
                ratio.numerator(),
                ratio.denominator(),
                ratio.percent(),
                PacerConfigFormat.percent(ratio.thresholdPercent()),
                verdict.reason());
    }

    BrokerGateReport withRunCounts(RunCounts counts) {
        return new BrokerGateReport(broker, active, partitions, ratio, verdict, counts);
    }
}
