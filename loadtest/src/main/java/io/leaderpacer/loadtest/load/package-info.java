/**
 * What the producers feel: a paced, classified produce load, the backlog the restarted broker must fetch back, a
 * consumer group reading throughout, and the latency books that keep every send's latency by class and phase.
 *
 * <p>Why classes: the gate protects the producers of the partitions whose preferred leader is the restarted broker,
 * and nobody else. A cluster-wide P99 hides them; and a slow in-sync follower holds back {@code acks=all} as much as a
 * slow leader, which no gate can change. So every send is kept both by its partition's static class (protected or
 * not) and by the restarted broker's role in that partition when the send was made.
 */
package io.leaderpacer.loadtest.load;
