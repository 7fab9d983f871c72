/**
 * What a load test measured: one result per round, a summary per policy (medians with their spread and KIP-1358's
 * three criteria), and the terminal table, CSV files and HTML report made from them.
 *
 * <p>Why results as plain values: the same figures are printed, written and charted, and a later calibration of the
 * simulator reads the CSV files; nothing here talks to a cluster.
 */
package io.leaderpacer.loadtest.result;
