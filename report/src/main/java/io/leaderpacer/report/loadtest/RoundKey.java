package io.leaderpacer.report.loadtest;

/**
 * The first two columns of every load-test file: which round a row belongs to.
 *
 * @param policy the policy as the load test was given it (a name, or {@code name:key=value,...})
 * @param round  the round's number, from 1, per policy
 */
public record RoundKey(String policy, int round) {}
