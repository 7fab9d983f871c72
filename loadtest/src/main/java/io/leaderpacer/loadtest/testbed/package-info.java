/**
 * The cluster under test and how the restarted broker is saturated: the test's own multi-process cluster or an
 * operator's existing one, and a CPU quota on the restarted broker's process alone.
 *
 * <p>Why a quota on one process: after a disk or host swap, catch-up fills the returning broker's own disk and
 * network and nobody else's. On one machine the honest stand-in is to cap that broker's CPU, so that its catch-up
 * saturates it while the other brokers keep their capacity.
 */
package io.leaderpacer.loadtest.testbed;
