package io.leaderpacer.agent.coordination;

import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleConfigSnapshot;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Catch-up pacing under a seeded plan of faults, on an in-JVM 4-broker cluster with two real {@code pacer run}
 * processes (child JVMs) and someone else's reassignment throttle in place: brokers killed or stopped and restarted
 * behind a backlog (at times while another still catches up), the active instance killed with SIGKILL (a fresh
 * standby started in its place), the paced topic deleted mid-catch-up and another created, and another tool's
 * throttle set and removed meanwhile. The invariant, checked at the end: once every broker is back in every ISR and
 * pacing has nothing left, every throttle config in the cluster, pacing's and everyone else's, is byte for byte what it
 * was before the plan. The instances are killed at the end, never stopped: what is restored was restored by pacing.
 *
 * <p>{@code -Dchaos.pacing.seed=N} replays a plan (the seed and the plan are printed first),
 * {@code -Dchaos.pacing.seed=random} draws a new one, {@code -Dchaos.pacing.steps=N} makes it longer.
 */
@Tag("cluster")
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class PacingChaosProcessTest {

    /** The plan CI runs every time. */
    private static final long DEFAULT_SEED = 30_1358L;

    private static final int DEFAULT_STEPS = 6;
    private static final List<Integer> BROKERS = List.of(0, 1, 2, 3);
    private static final Duration WAIT = Duration.ofSeconds(150);
    private static final long SESSION_MS = 6000;
    private static final int PARTITIONS = 12;
    /** A rate that spreads a backlog of a few MB over seconds. */
    private static final long RATE = 400_000;

    private static final String FOREIGN_TOPIC = "reassigned";

    /** One step of the plan; each is printed, and the same seed gives the same steps. */
    sealed interface Step {
        long pauseAfterMs();
    }

    /** A broker stopped (or killed), a backlog written while it is down, then started again. */
    record BrokerRestart(int broker, boolean kill, long backlogBytes, long pauseAfterMs) implements Step {}

    /** The active {@code pacer run} killed with SIGKILL, and a fresh standby started. */
    record ActiveKilled(long pauseAfterMs) implements Step {}

    /** The paced topic deleted, mid-catch-up if one runs, and a new one created with a backlog. */
    record TopicReplaced(long backlogBytes, long pauseAfterMs) implements Step {}

    /**
     * Another tool's follower rate on a broker and an entry on the paced topic, set then removed after a while; never
     * on broker 1, whose follower rate the reassignment's throttle already holds.
     */
    record ForeignThrottle(int broker, long forMs, long pauseAfterMs) implements Step {}

    /** The plan of a seed: deterministic, printable. */
    static List<Step> plan(long seed, int steps) {
        Random r = new Random(seed);
        List<Step> plan = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            long pause = 1000 + r.nextInt(4000);
            int kind = i == 0 ? 0 : r.nextInt(4);
            plan.add(
                    switch (kind) {
                        case 0 ->
                            new BrokerRestart(
                                    1 + r.nextInt(3), r.nextBoolean(), 3_000_000 + r.nextInt(5_000_000), pause);
                        case 1 -> new ActiveKilled(pause);
                        case 2 -> new TopicReplaced(2_000_000 + r.nextInt(3_000_000), pause);
                        default ->
                            new ForeignThrottle(List.of(0, 2, 3).get(r.nextInt(3)), 2000 + r.nextInt(4000), pause);
                    });
        }
        return plan;
    }

    private EmbeddedKafkaCluster cluster;
    private Path dir;
    private final List<AgentProcess> agents = new ArrayList<>();
    private int topics;
    private String topic;

    @BeforeEach
    void startCluster() throws Exception {
        dir = Files.createDirectories(Path.of("target", "agent-processes"));
        cluster = RecoveryScenario.pacedCluster(BROKERS.size());
        cluster.createTopic(FOREIGN_TOPIC, 3, 3);
        newTopic(0);
        // Someone else's reassignment throttle, as kafka-reassign-partitions --throttle leaves it.
        new ReplicationThrottles(cluster.admin(), Duration.ofSeconds(30))
                .change()
                .setRate(ThrottleSide.LEADER, BrokerScope.broker(0), 7_000_000)
                .setRate(ThrottleSide.FOLLOWER, BrokerScope.broker(1), 7_000_000)
                .setReplicas(ThrottleSide.LEADER, FOREIGN_TOPIC, ThrottledReplicas.parse("0:0,1:1"))
                .setReplicas(ThrottleSide.FOLLOWER, FOREIGN_TOPIC, ThrottledReplicas.parse("0:1"))
                .apply();
    }

    @AfterEach
    void stop() throws Exception {
        for (AgentProcess a : agents) {
            a.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void seededFaults_whilePacing_leaveEveryThrottleConfigExactlyAsBefore() throws Exception {
        long seed = seed();
        List<Step> plan = plan(seed, Integer.getInteger("chaos.pacing.steps", DEFAULT_STEPS));
        boolean preferredFirst = new Random(seed).nextBoolean();
        System.out.println("pacing chaos seed " + seed + " (replay with -Dchaos.pacing.seed=" + seed + "), preferred"
                + " first " + preferredFirst);
        plan.forEach(s -> System.out.println("  " + s));
        // The reading that showed all four: a second one may ask a broker that has not caught up yet.
        Map<String, String> before = await().atMost(Duration.ofSeconds(30))
                .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), BROKERS), m -> m.size() == 4);
        Map<String, String> settings = settings(seed, preferredFirst);
        agents.add(AgentProcess.start("chaos-a-" + seed, dir, settings));
        await().atMost(WAIT).until(() -> "ACTIVE".equals(agents.get(0).state()));
        agents.add(AgentProcess.start("chaos-b-" + seed, dir, settings));
        await().atMost(WAIT).until(() -> "STANDBY".equals(agents.get(1).state()));

        int step = 0;
        for (Step s : plan) {
            System.out.println("pacing chaos step " + (++step) + "/" + plan.size() + ": " + s);
            apply(s, settings, seed, step);
            Thread.sleep(s.pauseAfterMs());
            for (AgentProcess a : agents) {
                if (a.isAlive() && "ACTIVE".equals(a.state())) {
                    System.out.println("  pacing: " + a.status().path("pacing"));
                }
            }
        }

        for (int b : BROKERS) {
            if (!cluster.isRunning(b)) {
                cluster.startBroker(b);
            }
        }
        await("every broker back in every ISR")
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(this::allInSync);
        await("every throttle config as before")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), BROKERS))
                        .isEqualTo(before));
        String logs = String.join("\n", logs());
        assertThat(logs).as("pacing acted during the plan").contains("catch-up pacing:");
    }

    private void apply(Step s, Map<String, String> settings, long seed, int step) throws Exception {
        if (s instanceof BrokerRestart r) {
            if (r.kill()) {
                cluster.killBroker(r.broker());
            } else {
                cluster.stopBroker(r.broker());
            }
            // Out of the ISRs first (a killed broker is fenced after the session time-out), so that it has a
            // catch-up to pace; then a look or two of pacing while it is down.
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(() -> RecoveryScenario.outOfSync(cluster.admin(), topic, r.broker()) > 0);
            if (r.kill()) {
                // And fenced, so that pacing's looks see it down: restarted within its session time-out, a killed
                // broker may be fenced for less than one look, and quiet looks (the brokers only) miss its whole
                // recovery until their next full read (a known limit, docs/INTERNALS.md "Quiet looks").
                await().atMost(Duration.ofSeconds(40))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> cluster.isFenced(r.broker()));
            }
            RecoveryScenario.writeBacklog(cluster, topic, PARTITIONS, r.backlogBytes());
            Thread.sleep(2000);
            cluster.startBroker(r.broker());
        } else if (s instanceof ActiveKilled) {
            for (AgentProcess a : agents) {
                if (a.isAlive() && "ACTIVE".equals(a.state())) {
                    a.kill();
                }
            }
            agents.add(AgentProcess.start("chaos-" + step + "-" + seed, dir, settings));
        } else if (s instanceof TopicReplaced t) {
            cluster.admin().deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            newTopic(topics);
            RecoveryScenario.writeBacklog(cluster, topic, PARTITIONS, t.backlogBytes());
        } else if (s instanceof ForeignThrottle f) {
            foreign(f);
        }
    }

    /**
     * Another tool's throttle comes and goes: a follower rate on a broker that had none and an entry on the paced
     * topic, then both removed (the topic may be gone by then; its entry went with it).
     */
    private void foreign(ForeignThrottle f) throws Exception {
        ConfigResource broker = BrokerScope.broker(f.broker()).resource();
        ConfigResource paced = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        String entry = "0:" + f.broker();
        String rateKey = ThrottleSide.FOLLOWER.rateKey();
        String listKey = ThrottleSide.FOLLOWER.replicasKey();
        cluster.admin()
                .incrementalAlterConfigs(Map.of(
                        broker,
                                List.of(new AlterConfigOp(
                                        new ConfigEntry(rateKey, "9000000"), AlterConfigOp.OpType.SET)),
                        paced,
                                List.of(new AlterConfigOp(
                                        new ConfigEntry(listKey, entry), AlterConfigOp.OpType.APPEND))))
                .all()
                .get(30, TimeUnit.SECONDS);
        Thread.sleep(f.forMs());
        cluster.admin()
                .incrementalAlterConfigs(Map.of(
                        broker, List.of(new AlterConfigOp(new ConfigEntry(rateKey, ""), AlterConfigOp.OpType.DELETE))))
                .all()
                .get(30, TimeUnit.SECONDS);
        try {
            cluster.admin()
                    .incrementalAlterConfigs(Map.of(
                            paced,
                            List.of(new AlterConfigOp(new ConfigEntry(listKey, entry), AlterConfigOp.OpType.SUBTRACT))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
    }

    private void newTopic(int n) {
        topics = n + 1;
        topic = "paced-" + n;
        cluster.createTopic(topic, PARTITIONS, 3);
    }

    private boolean allInSync() throws Exception {
        for (String t : cluster.admin().listTopics().names().get(30, TimeUnit.SECONDS)) {
            for (TopicPartitionInfo p : RecoveryScenario.describe(cluster.admin(), t)) {
                if (p.isr().size() < p.replicas().size()) {
                    return false;
                }
            }
        }
        return true;
    }

    private List<String> logs() throws Exception {
        List<String> out = new ArrayList<>();
        for (AgentProcess a : agents) {
            out.add(a.log());
        }
        return out;
    }

    private Map<String, String> settings(long seed, boolean preferredFirst) {
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", cluster.bootstrapServers());
        s.put("pacer.group.id", "pacing-chaos-" + seed);
        s.put("pacer.session.timeout.ms", Long.toString(SESSION_MS));
        s.put("pacer.request.timeout.ms", "10000");
        s.put("leader.imbalance.check.interval.seconds", "2");
        s.put("leader.imbalance.catch.up.pacing", "static");
        s.put("leader.imbalance.catch.up.pacing.rate.bytes", Long.toString(RATE));
        s.put("leader.imbalance.catch.up.pacing.min.rate.bytes", Long.toString(RATE / 4));
        s.put("leader.imbalance.catch.up.pacing.interval.ms", "1000");
        s.put("leader.imbalance.catch.up.pacing.unthrottled.lag.bytes", "0");
        // Restarted within replica.lag.time.max.ms: these tests are about the throttle itself, set at once.
        s.put("leader.imbalance.catch.up.pacing.lag.time.max.ms", "0");
        s.put("leader.imbalance.catch.up.pacing.preferred.first", Boolean.toString(preferredFirst));
        return s;
    }

    private static long seed() {
        String s = System.getProperty("chaos.pacing.seed");
        if (s == null) {
            return DEFAULT_SEED;
        }
        return "random".equals(s) ? new Random().nextLong() : Long.parseLong(s);
    }
}
