package io.leaderpacer.loadtest.steady;

import io.leaderpacer.loadtest.load.View;

/**
 * One window of a round's steady phase, for one view of the sends.
 *
 * @param view   which sends
 * @param index  0-based, in time order within the round's steady phase
 * @param count  sends completed in the window
 * @param p99Ms  their P99 in milliseconds ({@code NaN} when there were none)
 */
public record SteadyWindow(View view, int index, long count, double p99Ms) {}
