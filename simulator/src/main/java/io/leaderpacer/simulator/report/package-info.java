/**
 * What a simulation run shows people: the terminal table, the CSV files and the offline
 * HTML page.
 *
 * <p>The CSV files' formats ({@link io.leaderpacer.simulator.report.SimulationFiles}: the summary, the P99 per
 * broker, the time series) are shared by the writer and by the reader that merges a summary into an earlier one.
 * The neutral shapes (the chart page, the text and Markdown table, CSV formats, atomic file writes) are the
 * {@code report} module's ({@link io.leaderpacer.report}), shared with the load test; the writers
 * here turn simulation results into them. Every file is written to a temporary file first and
 * moved into place, so an interrupted run never leaves half a report behind.
 */
package io.leaderpacer.simulator.report;
