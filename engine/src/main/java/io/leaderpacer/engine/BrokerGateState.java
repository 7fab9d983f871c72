package io.leaderpacer.engine;

/**
 * What the gate remembers about one broker between runs. Brokers the gate has nothing to
 * remember about (open, never gated, or inactive: a restart ends an episode) have no entry.
 *
 * @param phase          {@link GatePhase#GATED} or {@link GatePhase#ESCAPED}
 * @param episodeStartMs the run that started this gating episode: the first run that found the
 *                       broker active (or, with the wall clock, merely) over the threshold
 * @param gatedMs        how long the max-wait clock had run at the last run of this episode; every run
 *                       of an episode finds the broker active (an inactive run ends it), so the clock is
 *                       simply the time since the episode started
 * @param clearRuns      consecutive runs in which the broker would not have been gated (the
 *                       hysteresis counter; release at 2)
 * @param clearSinceMs   the first run of the current clear streak, so the hysteresis time floor
 *                       ({@code hysteresis.min.ms}) can be measured without a clock; meaningless when
 *                       {@code clearRuns} is 0
 */
public record BrokerGateState(GatePhase phase, long episodeStartMs, long gatedMs, int clearRuns, long clearSinceMs) {

    public BrokerGateState {
        if (phase != GatePhase.GATED && phase != GatePhase.ESCAPED) {
            throw new IllegalArgumentException("only GATED or ESCAPED brokers are remembered, not " + phase);
        }
        if (gatedMs < 0 || clearRuns < 0) {
            throw new IllegalArgumentException("negative gate clock or counter: " + gatedMs + ", " + clearRuns);
        }
    }

    /** A state without a clear streak (its start is then irrelevant). */
    public BrokerGateState(GatePhase phase, long episodeStartMs, long gatedMs, int clearRuns) {
        this(phase, episodeStartMs, gatedMs, clearRuns, episodeStartMs);
    }

    /** A fresh episode starting now, with a fresh clock. */
    static BrokerGateState startEpisode(long nowMs) {
        return new BrokerGateState(GatePhase.GATED, nowMs, 0, 0, nowMs);
    }
}
