/**
 * The load test's data files, as {@code pacer loadtest} writes them and the simulator's calibration reads them: one
 * {@link io.leaderpacer.report.csv.CsvFormat} per file ({@link io.leaderpacer.report.loadtest.LoadTestFiles}) and
 * its row record.
 *
 * <p>Why here: the load test writes these files and the simulator reads them, and neither module depends on the
 * other; the formats are the contract between them, in one place. Every row starts with the round's
 * {@link io.leaderpacer.report.loadtest.RoundKey} (policy, round number). Times are seconds since the round started
 * unless a column says otherwise; a number the round did not measure is an empty cell. The policy labels runs
 * recorded before the policies got one registry are read as today's names
 * ({@link io.leaderpacer.report.loadtest.LegacyLoadTestLabels}).
 */
package io.leaderpacer.report.loadtest;
