package io.leaderpacer.loadtest.load;

/**
 * The sends of one view that completed in one second of a round.
 *
 * @param second seconds since the round started (the second the sends completed in)
 * @param view   which sends
 * @param count  sends completed, successful or not
 * @param errors sends that failed
 * @param p50Ms  median latency in milliseconds ({@code NaN} when there were none)
 * @param p99Ms  99th percentile in milliseconds ({@code NaN} when there were none)
 * @param maxMs  largest latency in milliseconds ({@code NaN} when there were none)
 */
public record SecondSample(long second, View view, long count, long errors, double p50Ms, double p99Ms, double maxMs) {}
