package io.leaderpacer.engine;

/**
 * What the gate remembers about one broker between runs. Brokers the gate has nothing to
 * remember about (open, never gated) have no entry.
 *
 * @param phase            {@link GatePhase#GATED} or {@link GatePhase#ESCAPED}
 * @param episodeStartMs   the run that started this gating episode: the first run that found the
 *                         broker active (or, with the wall clock, merely) over the threshold
 * @param gatedActiveMs    how long the max-wait clock has run in this episode
 * @param lastActiveRunMs  time of the previous run if it found the broker active, else -1: the
 *                         clock only advances across two consecutive active runs, so time spent
 *                         fenced or shut down never counts
 * @param clearRuns        consecutive runs in which the broker would not have been gated (the
 *                         hysteresis counter; release at 2)
 */
public record BrokerGateState(GatePhase phase, long episodeStartMs, long gatedActiveMs, long lastActiveRunMs,
                              int clearRuns) {

    public BrokerGateState {
        if (phase != GatePhase.GATED && phase != GatePhase.ESCAPED) {
            throw new IllegalArgumentException("only GATED or ESCAPED brokers are remembered, not " + phase);
        }
        if (gatedActiveMs < 0 || clearRuns < 0) {
            throw new IllegalArgumentException("negative gate clock or counter: " + gatedActiveMs + ", " + clearRuns);
        }
    }

    /** A fresh episode starting now. */
    static BrokerGateState startEpisode(long nowMs, boolean active) {
        return new BrokerGateState(GatePhase.GATED, nowMs, 0, active ? nowMs : -1, 0);
    }
}
