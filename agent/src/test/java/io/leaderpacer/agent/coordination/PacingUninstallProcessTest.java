package io.leaderpacer.agent.coordination;

import io.leaderpacer.agent.RecoveryScenario;
import io.leaderpacer.agent.cli.CommandRunner;
import io.leaderpacer.agent.cli.RestoreCommand;
import io.leaderpacer.agent.cli.ThrottlesCommand;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleConfigSnapshot;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.agent.throttle.ThrottledReplicas;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator's uninstall after a crash, on a real cluster with a real {@code pacer run} process: the only instance
 * is killed with SIGKILL while it paces broker 2, so what pacing set stays behind. {@code pacer throttles} then shows
 * pacing's values marked as pacing's and exits non-zero once no broker is recovering; {@code pacer restore} refuses
 * while an instance of the group runs and, once none does, puts back exactly what was there before, someone else's
 * reassignment throttle included; {@code pacer throttles} then exits 0.
 */
@Tag("cluster")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PacingUninstallProcessTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String TOPIC = "paced";
    private static final int PARTITIONS = 12;
    private static final long RATE = 200_000;
    private static final Set<Integer> BROKERS = Set.of(0, 1, 2);

    private EmbeddedKafkaCluster cluster;
    private Path dir;

    @BeforeEach
    void startCluster() throws Exception {
        dir = Files.createDirectories(Path.of("target", "agent-processes"));
        cluster = RecoveryScenario.pacedCluster();
        cluster.createTopic(TOPIC, PARTITIONS, 3);
        cluster.createTopic("reassigned", 3, 3);
        new ReplicationThrottles(cluster.admin(), Duration.ofSeconds(30))
                .change()
                .setRate(ThrottleSide.FOLLOWER, BrokerScope.broker(1), 7_000_000)
                .setReplicas(ThrottleSide.FOLLOWER, "reassigned", ThrottledReplicas.parse("0:1"))
                .apply();
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void agentKilledWhilePacing_throttlesShowsWhatIsLeft_andRestorePutsBackExactlyWhatWasThere() throws Exception {
        // The reading that showed both: a second one may ask a broker that has not caught up yet.
        Map<String, String> before = await().atMost(Duration.ofSeconds(30))
                .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), BROKERS), m -> m.size() == 2);
        Map<String, String> settings = Map.of(
                "bootstrap.servers",
                cluster.bootstrapServers(),
                "pacer.group.id",
                "uninstall",
                "pacer.session.timeout.ms",
                "6000",
                "leader.imbalance.check.interval.seconds",
                "2",
                "leader.imbalance.catch.up.pacing",
                "static",
                "leader.imbalance.catch.up.pacing.rate.bytes",
                Long.toString(RATE),
                "leader.imbalance.catch.up.pacing.min.rate.bytes",
                Long.toString(RATE),
                "leader.imbalance.catch.up.pacing.interval.ms",
                "1000",
                "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
                "0",
                // Restarted within replica.lag.time.max.ms: these tests are about the throttle itself, set at once.
                "leader.imbalance.catch.up.pacing.lag.time.max.ms",
                "0");
        Path config = dir.resolve("uninstall.properties");
        Properties props = new Properties();
        props.putAll(settings);
        try (Writer w = Files.newBufferedWriter(config)) {
            props.store(w, null);
        }

        try (AgentProcess a = AgentProcess.start("uninstall", dir, settings)) {
            await().atMost(WAIT).until(() -> "ACTIVE".equals(a.state()));
            cluster.stopBroker(2);
            RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 12_000_000);
            // The cluster-default rate in place before broker 2 fetches, so that its catch-up is paced from the start.
            await().atMost(WAIT)
                    .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1))
                            .containsKey("cluster default follower.replication.throttled.rate"));
            cluster.startBroker(2);
            await().atMost(WAIT)
                    .pollInterval(Duration.ofMillis(300))
                    .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), BROKERS)
                                    .containsKey("broker 2 follower.replication.throttled.rate")
                            && RecoveryScenario.outOfSync(cluster.admin(), TOPIC, 2) > 0);

            Map<String, String> paced = ThrottleConfigSnapshot.of(cluster.admin(), BROKERS);
            CommandRunner.Result refused = CommandRunner.run(new RestoreCommand(), "--config", config.toString());
            assertThat(refused.exitCode()).as(refused.err()).isEqualTo(RestoreCommand.EXIT_NOT_DONE);
            assertThat(refused.err()).contains("has 1 member(s)");
            assertThat(ThrottleConfigSnapshot.of(cluster.admin(), BROKERS))
                    .as("a refused restore changes nothing")
                    .containsAllEntriesOf(Map.of(
                            "broker 2 follower.replication.throttled.rate",
                            paced.get("broker 2 follower.replication.throttled.rate")));
            a.kill();
        }

        await().atMost(WAIT)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> RecoveryScenario.outOfSync(cluster.admin(), TOPIC, 2) == 0);
        CommandRunner.Result left = CommandRunner.run(new ThrottlesCommand(), "--config", config.toString());
        assertThat(left.exitCode()).as(left.out() + left.err()).isEqualTo(ThrottlesCommand.EXIT_LEFT_BEHIND);
        assertThat(left.out())
                .contains("pacing's (replaced: ")
                .contains("someone else's")
                .contains("Catch-up pacing still owns throttle values while no broker is recovering");
        assertThat(ThrottleConfigSnapshot.of(cluster.admin(), BROKERS))
                .as("the kill left pacing's rate behind")
                .containsKey("broker 2 follower.replication.throttled.rate");

        // The killed instance stays a member until its session times out; restore refuses until then.
        await().atMost(WAIT)
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> CommandRunner.run(new RestoreCommand(), "--config", config.toString())
                                .exitCode()
                        == 0);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(ThrottleConfigSnapshot.of(cluster.admin(), BROKERS))
                        .isEqualTo(before));
        CommandRunner.Result clean = CommandRunner.run(new ThrottlesCommand(), "--config", config.toString());
        assertThat(clean.exitCode()).as(clean.out() + clean.err()).isZero();
        assertThat(clean.out()).contains("Catch-up pacing owns nothing.").contains("someone else's");
        CommandRunner.Result again = CommandRunner.run(new RestoreCommand(), "--config", config.toString());
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).contains("nothing to restore");
    }

    @Test
    void restoreWhileAnAgentStarts_neverActsBesideIt_andNothingIsLeftUnowned() throws Exception {
        Map<String, String> before = await().atMost(Duration.ofSeconds(30))
                .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), BROKERS), m -> m.size() == 2);
        Map<String, String> settings = Map.of(
                "bootstrap.servers",
                cluster.bootstrapServers(),
                "pacer.group.id",
                "racing",
                "pacer.session.timeout.ms",
                "6000",
                "leader.imbalance.check.interval.seconds",
                "2",
                "leader.imbalance.catch.up.pacing",
                "static",
                "leader.imbalance.catch.up.pacing.rate.bytes",
                Long.toString(RATE),
                "leader.imbalance.catch.up.pacing.min.rate.bytes",
                Long.toString(RATE),
                "leader.imbalance.catch.up.pacing.interval.ms",
                "1000",
                "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
                "0",
                // Restarted within replica.lag.time.max.ms: these tests are about the throttle itself, set at once.
                "leader.imbalance.catch.up.pacing.lag.time.max.ms",
                "0");
        Path config = dir.resolve("racing.properties");
        Properties props = new Properties();
        props.putAll(settings);
        try (Writer w = Files.newBufferedWriter(config)) {
            props.store(w, null);
        }
        // An instance paces broker 2 and is killed: pacing's values stay, recorded in the ledger.
        try (AgentProcess a = AgentProcess.start("racing-a", dir, settings)) {
            await().atMost(WAIT).until(() -> "ACTIVE".equals(a.state()));
            cluster.stopBroker(2);
            RecoveryScenario.writeBacklog(cluster, TOPIC, PARTITIONS, 12_000_000);
            await().atMost(WAIT)
                    .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), Set.of(0, 1))
                            .containsKey("cluster default follower.replication.throttled.rate"));
            cluster.startBroker(2);
            await().atMost(WAIT)
                    .pollInterval(Duration.ofMillis(300))
                    .until(() -> ThrottleConfigSnapshot.of(cluster.admin(), BROKERS)
                            .containsKey("broker 2 follower.replication.throttled.rate"));
            a.kill();
        }
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> members("racing") == 0);

        // pacer restore starts; while it holds the group's active role, an instance starts (systemd restarting it).
        CompletableFuture<CommandRunner.Result> restore = CompletableFuture.supplyAsync(
                () -> CommandRunner.run(new RestoreCommand(), "--config", config.toString()));
        await().atMost(WAIT)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> members("racing") > 0 || restore.isDone());
        try (AgentProcess b = AgentProcess.start("racing-b", dir, settings)) {
            List<Long> activeWhileRestoring = new ArrayList<>();
            while (!restore.isDone()) {
                if ("ACTIVE".equals(b.state())) {
                    activeWhileRestoring.add(System.currentTimeMillis());
                }
                Thread.sleep(200);
            }
            CommandRunner.Result r = restore.get();
            assertThat(r.exitCode()).as(r.out() + r.err()).isIn(0, RestoreCommand.EXIT_NOT_DONE);
            if (r.exitCode() == 0) {
                assertThat(activeWhileRestoring)
                        .as("the instance was not active while the restore ran to its end")
                        .isEmpty();
            } else {
                assertThat(r.err()).contains("took the active role while pacer restore ran");
            }
            // Whoever acted last owns what is left: the instance paces broker 2 to the end, then restores exactly.
            await().atMost(WAIT).until(() -> "ACTIVE".equals(b.state()));
            await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                assertThat(RecoveryScenario.outOfSync(cluster.admin(), TOPIC, 2))
                        .isZero();
                assertThat(ThrottleConfigSnapshot.of(cluster.admin(), BROKERS)).isEqualTo(before);
            });
            CommandRunner.Result clean = CommandRunner.run(new ThrottlesCommand(), "--config", config.toString());
            assertThat(clean.exitCode()).as(clean.out() + clean.err()).isZero();
        }
    }

    private int members(String group) throws Exception {
        try {
            return cluster.admin()
                    .describeConsumerGroups(List.of(group))
                    .describedGroups()
                    .get(group)
                    .get(30, TimeUnit.SECONDS)
                    .members()
                    .size();
        } catch (ExecutionException e) {
            return 0;
        }
    }
}
