/**
 * The shapes the simulator's and the load test's reports share: a self-contained HTML page of text, tables and
 * charts ({@link io.leaderpacer.report.ChartPage}), a table as aligned text or Markdown
 * ({@link io.leaderpacer.report.TextTable}), files written whole or not at all
 * ({@link io.leaderpacer.report.AtomicFiles}), CSV formats ({@link io.leaderpacer.report.csv}) and the load test's
 * data files ({@link io.leaderpacer.report.loadtest}).
 *
 * <p>Why a module of its own: the load test's report must look like the simulator's, and the load test must not
 * depend on the simulator for it (nor the simulator on the load test). Nothing here runs a simulation or talks to a
 * cluster: the API speaks of strings, numbers and seconds, and of the columns of the files the load test hands the
 * simulator.
 */
package io.leaderpacer.report;
