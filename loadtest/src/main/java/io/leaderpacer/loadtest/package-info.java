/**
 * {@code pacer loadtest}: the proposal's system test made runnable on a real Kafka cluster.
 *
 * <p>Why it exists: everything Leader Pacer promises rests on one claim, that withholding leadership from a broker
 * still catching up keeps producers' P99 near the steady state. The simulator can only model that; this package
 * measures it. A round stops and restarts one broker under steady {@code acks=all} load, with the restarted broker's
 * process saturated on its own, while the shipped agent runs one policy; rounds alternate between policies; every
 * send's latency is kept by class (protected or not) and by the restarted broker's role; the result is a table with
 * medians and spread, CSV files and an HTML report, whichever way it comes out.
 */
package io.leaderpacer.loadtest;
