package io.leaderpacer.compat;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.throttle.ThrottleConfigSnapshot;
import io.leaderpacer.cluster.ProcessKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerPacing;
import org.apache.kafka.clients.admin.Admin;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Catch-up pacing on one Kafka version, as an operator meets it: broker 2 killed with a backlog on its preferred
 * partitions, paced by the cluster-default follower rate while it is down and by a rate of its own once it is up,
 * only its out-of-sync replicas listed; and once it is back in every ISR, every replication throttle config of the
 * cluster exactly as it was before, byte for byte. The agent runs in the test's JVM on this version's cluster, looking
 * once a call, so that each step sees what the look before it left.
 */
final class PacingStory {

    /** Slow enough that the catch-up of {@link #BACKLOG_BYTES} spans many looks. */
    private static final long RATE = 300_000;

    /**
     * Well past what the restarted broker fetches before pacing's first look once it is up: its follower quota starts
     * empty, and Kafka lets up to about its 11 one-second samples of the rate through at once. With 6 MB, Kafka 4.4.0
     * on an idle machine was back in every ISR before that look (a clean-clone run), and nothing was seen paced.
     */
    private static final long BACKLOG_BYTES = 15_000_000;

    private static final List<Integer> ALL = List.of(0, 1, 2);
    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final String OWN_RATE = "broker 2 follower.replication.throttled.rate";

    private final ProcessKafkaCluster cluster;
    private final Admin admin;
    private final ClusterMoves moves;
    private final String topic;
    private final int partitions;

    PacingStory(ProcessKafkaCluster cluster, Admin admin, ClusterMoves moves, String topic, int partitions) {
        this.cluster = cluster;
        this.admin = admin;
        this.moves = moves;
        this.topic = topic;
        this.partitions = partitions;
    }

    String run() throws Exception {
        Map<String, String> before = ThrottleConfigSnapshot.of(admin, ALL);
        PacerConfig policy = PacerConfig.fromMap(Map.of(
                "leader.imbalance.catch.up.pacing",
                "static",
                "leader.imbalance.catch.up.pacing.rate.bytes",
                Long.toString(RATE),
                "leader.imbalance.catch.up.pacing.min.rate.bytes",
                Long.toString(RATE),
                "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
                "0",
                // Restarted within replica.lag.time.max.ms: these tests are about the throttle itself, set at once.
                "leader.imbalance.catch.up.pacing.lag.time.max.ms",
                "0"));
        AtomicBoolean ownRate = new AtomicBoolean();
        // What each look decided for broker 2 and what its own rate then read, for the failure message.
        Set<String> trace = new LinkedHashSet<>();
        String listKey = "topic " + topic + " follower.replication.throttled.replicas";
        try (PacerAgent pacer = PacerAgent.builder(admin)
                .basePolicy(policy)
                .requestTimeout(Duration.ofSeconds(30))
                .build()) {
            cluster.kill(2);
            moves.writeBacklog(topic, 2, BACKLOG_BYTES);
            assertThat(pacer.paceOnce().problem()).isEmpty();
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(admin, List.of(0, 1)))
                            .as("broker 2 down: the cluster default carries its rate")
                            .containsEntry("cluster default follower.replication.throttled.rate", Long.toString(RATE))
                            .containsKey(listKey));
            cluster.start(2);
            cluster.awaitUnfenced(2, Duration.ofSeconds(120));
            await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
                PacingReport r = pacer.paceOnce();
                assertThat(r.problem()).isEmpty();
                Map<String, String> now = ThrottleConfigSnapshot.of(admin, ALL);
                String own = now.get(OWN_RATE);
                for (BrokerPacing b : r.brokers()) {
                    if (b.broker() == 2 && b.rateBytes().isPresent()) {
                        // Its own rate is the one pacing decided: the story's static rate, or the rate the stall
                        // detector raised it to. A broker answers describeConfigs from its metadata image, which
                        // may show the change a moment after the controller took it.
                        String decided = Long.toString(b.rateBytes().getAsLong());
                        for (int i = 0; i < 8 && !decided.equals(own); i++) {
                            Thread.sleep(250);
                            now = ThrottleConfigSnapshot.of(admin, ALL);
                            own = now.get(OWN_RATE);
                        }
                        trace.add(b.phase() + " " + decided + " (" + b.reason() + "), own rate " + own);
                        ownRate.compareAndSet(false, decided.equals(own));
                    }
                }
                if (now.containsKey(listKey)) {
                    assertThat(now.get(listKey).split(","))
                            .as("only broker 2's replicas")
                            .allSatisfy(e -> assertThat(e).endsWith(":2"));
                }
                return moves.inSyncOn(topic, 2) == partitions && r.brokers().isEmpty();
            });
        }
        assertThat(ownRate)
                .as("broker 2 had a rate of its own once it was up, the rate decided; looks: %s", trace)
                .isTrue();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(ThrottleConfigSnapshot.of(admin, ALL)).isEqualTo(before));
        return "broker 2 paced at " + RATE / 1000
                + " kB/s: the cluster default while it was down, its own rate once up,"
                + " its out-of-sync replicas listed; every throttle config restored exactly ("
                + before.size() + " set before, by the story)";
    }
}
