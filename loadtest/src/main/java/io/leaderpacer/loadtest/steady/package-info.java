/**
 * The steady state a load test compares against: when the cluster is steady enough to start (the warm-up), and the
 * steady reference every round's window is divided by.
 *
 * <p>Why its own package: a load test's verdict is a ratio to the steady state, and a steady phase polluted by one
 * stall (a cold JVM, a spike right after the warm-up) once inverted a run's comparison of two policies. Everything
 * here judges latency in {@linkplain SteadyWindows#WINDOW windows of 5 s}, so that one disturbed stretch is one
 * window and not a whole phase.
 */
package io.leaderpacer.loadtest.steady;
