/**
 * The shapes the simulator's and the load test's reports share: a self-contained HTML page of text, tables and
 * charts ({@link io.leaderpacer.report.ChartPage}), a table as aligned text or Markdown
 * ({@link io.leaderpacer.report.TextTable}), and files written whole or not at all
 * ({@link io.leaderpacer.report.AtomicFiles}).
 *
 * <p>Why a module of its own: the load test's report must look like the simulator's, and the load test must not
 * depend on the simulator for it (nor the simulator on the load test). Nothing here knows about simulations or
 * clusters: the API speaks of strings, numbers and seconds.
 */
package io.leaderpacer.report;
