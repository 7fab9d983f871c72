package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;

/**
 * A model parameter the fit may move, within bounds, with the reason it is free (what measured effect it carries).
 *
 * @param key   the model key
 * @param min   lower bound
 * @param max   upper bound
 * @param start where the search starts
 * @param why   which measured figures determine it
 */
public record FitParameter(ModelKey key, double min, double max, double start, String why) {

    public double clamp(double v) {
        return Math.max(min, Math.min(max, v));
    }
}
