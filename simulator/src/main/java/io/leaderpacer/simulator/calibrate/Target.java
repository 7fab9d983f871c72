package io.leaderpacer.simulator.calibrate;

/**
 * One measured figure the fit aims at: the median over a policy's rounds, with the spread of the rounds.
 *
 * @param policy   the load test's policy name
 * @param quantity what it is
 * @param median   median over the rounds
 * @param min      smallest round
 * @param max      largest round
 * @param rounds   rounds that had a value
 */
public record Target(String policy, Quantity quantity, double median, double min, double max, int rounds) {}
