/**
 * {@code pacer demo}: a real 3-broker KRaft Kafka cluster inside the JVM, one broker restarted
 * under load, and the agent handing its leadership back, first with {@code wait-for-sync} and then
 * with {@code immediate}, on the same cluster.
 *
 * <p>Why a demo on a real cluster rather than the simulator: it shows on Kafka's own code what an
 * operator would see (the ISR rejoining slowly under a replication throttle, the gate holding,
 * paced batches, produce latency), with nothing to install. Every figure in the final comparison
 * and in the HTML report is read from the same recorded timeline that was printed live
 * ({@link io.leaderpacer.cli.demo.TimelineSample}), so the pieces that compute them are tested
 * without a cluster, and the one end-to-end test checks the gate's promise on that record.
 */
package io.leaderpacer.cli.demo;
