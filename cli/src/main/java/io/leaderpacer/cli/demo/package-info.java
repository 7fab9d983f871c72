/**
 * {@code pacer demo}: the README's first command, a short run of the load test.
 *
 * <p>Why the load test and not a cluster of its own: an in-JVM cluster cannot saturate one broker alone (every broker
 * shares the same cores, so catch-up slows everyone whoever leads), and a latency comparison made on one invites the
 * wrong reading. The demo therefore runs the load test's separate-process cluster with the restarted broker capped,
 * warms up first, shows the protected partitions apart, and says which mode ran; where no cap can be set it shows
 * the mechanism only.
 */
package io.leaderpacer.cli.demo;
