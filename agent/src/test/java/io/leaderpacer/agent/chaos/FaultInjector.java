package io.leaderpacer.agent.chaos;

import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.ConfigKey;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Carries out the steps of a {@link ChaosSchedule} on the real cluster, one at a time, and counts what it did.
 *
 * <p>Why apart from the test: the test reads as "plan, inject, check"; how a step is done on Kafka (the follower
 * throttle set while the broker still runs, since the request is routed to it; a crash as a shutdown that does
 * not wait for leadership to move; the list written as an operator would, through the agent's config topic) is
 * kept here. Every step leaves every broker running and no throttle in place when it returns, so the plan's
 * bound of one fault at a time holds.
 */
final class FaultInjector {

    /** The cluster; owned by the test. */
    private final EmbeddedKafkaCluster cluster;
    /** The operator's handle on the agent's dynamic configuration (a second client of the config topic). */
    private final TopicConfigSource operator;
    /** Topics whose catch-up a slow follower throttles. */
    private final String[] throttledTopics;
    /** A slow follower's fetch rate, bytes per second. */
    private final long slowFollowerBytesPerSecond;

    /** The list as last set by this injector. */
    private SortedSet<Integer> list = new TreeSet<>();

    private long restarts;
    private long crashes;
    private long slowFollowerEpisodes;
    private long listChanges;

    FaultInjector(
            EmbeddedKafkaCluster cluster,
            TopicConfigSource operator,
            long slowFollowerBytesPerSecond,
            String... throttledTopics) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.operator = Objects.requireNonNull(operator, "operator");
        this.slowFollowerBytesPerSecond = slowFollowerBytesPerSecond;
        this.throttledTopics = throttledTopics.clone();
    }

    /** Carries out one step, including the pause after it. */
    void apply(ChaosFault fault) throws Exception {
        if (fault instanceof ChaosFault.Restart restart) {
            restart(restart);
        } else if (fault instanceof ChaosFault.ListChange change) {
            setList(change.deprioritized());
        } else {
            throw new IllegalArgumentException("unknown chaos step " + fault);
        }
        Thread.sleep(fault.pauseAfterMs());
    }

    /** Sets the deprioritized list ({@code pacer config --alter}; an empty list deletes the override). */
    void setList(Set<Integer> brokers) throws Exception {
        SortedSet<Integer> next = new TreeSet<>(brokers);
        String key = ConfigKey.DEPRIORITIZED_LIST.key();
        if (next.isEmpty()) {
            operator.delete(Set.of(key));
        } else {
            operator.alter(Map.of(key, ChaosFault.ListChange.configValue(next)));
        }
        list = next;
        listChanges++;
    }

    /** The list as last set. */
    SortedSet<Integer> list() {
        return list;
    }

    private void restart(ChaosFault.Restart r) throws InterruptedException {
        if (r.slowFollower()) {
            RecoveryScenario.setFollowerThrottle(cluster, r.broker(), slowFollowerBytesPerSecond, throttledTopics);
        }
        if (r.abrupt()) {
            cluster.killBroker(r.broker());
            crashes++;
        } else {
            cluster.stopBroker(r.broker());
        }
        Thread.sleep(r.downMs());
        cluster.startBroker(r.broker());
        restarts++;
        if (r.slowFollower()) {
            Thread.sleep(r.slowFollowerMs());
            RecoveryScenario.clearFollowerThrottle(cluster, r.broker(), throttledTopics);
            slowFollowerEpisodes++;
        }
    }

    long restarts() {
        return restarts;
    }

    long crashes() {
        return crashes;
    }

    long slowFollowerEpisodes() {
        return slowFollowerEpisodes;
    }

    long listChanges() {
        return listChanges;
    }
}
