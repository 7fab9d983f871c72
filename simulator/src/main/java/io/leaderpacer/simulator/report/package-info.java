/**
 * What a simulation run shows people: the terminal table, the CSV time series and the offline
 * HTML page.
 *
 * <p>{@link io.leaderpacer.simulator.report.ChartPage} is deliberately generic (text, tables,
 * charts over seconds) so that other reports, such as the live-cluster demo, draw the same kind
 * of page without depending on the simulator's model. The other writers turn simulation results
 * into those neutral shapes; every file is written to a temporary file first and moved into
 * place, so an interrupted run never leaves half a report behind.
 */
package io.leaderpacer.simulator.report;
