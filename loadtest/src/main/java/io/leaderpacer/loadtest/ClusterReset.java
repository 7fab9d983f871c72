package io.leaderpacer.loadtest;

import org.apache.kafka.clients.admin.Admin;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Puts the cluster back after a round: full ISRs and every partition on its preferred leader, so that the next round
 * starts from the same state; and proves that the agent left no replication throttle behind (it restores what it set
 * when it stops: one left would be a severity-1 bug, so the run stops on it).
 */
final class ClusterReset {

    private static final Duration FULL_ISR_LIMIT = Duration.ofSeconds(300);
    private static final Duration REBALANCE_LIMIT = Duration.ofSeconds(60);

    private ClusterReset() {}

    static void afterRound(
            Admin admin, TestTopics topics, Collection<Integer> brokers, String tag, Consumer<String> printer)
            throws Exception {
        Set<String> names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        if (!topics.awaitFullIsr(names, FULL_ISR_LIMIT)) {
            throw new IllegalStateException("after the round, some partitions did not get their full ISR back within "
                    + FULL_ISR_LIMIT.toSeconds() + " s");
        }
        if (!topics.rebalance(names, REBALANCE_LIMIT)) {
            throw new IllegalStateException(
                    "after the round, leadership did not return to every preferred leader within "
                            + REBALANCE_LIMIT.toSeconds() + " s");
        }
        List<String> left = ThrottleCheck.leftInPlace(admin, brokers, names);
        if (!left.isEmpty()) {
            throw new IllegalStateException("after the round, replication throttle configs were still set (the agent"
                    + " restores what it set when it stops): " + String.join("; ", left));
        }
        printer.accept(tag + " cluster back to full ISRs and preferred leaders");
    }
}
