package io.leaderpacer.agent.cli;

import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.policy.PolicyRegistry;
import io.leaderpacer.engine.policy.PresetMatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code pacer plan} without a cluster: the built-in example and user errors. */
class PlanCommandTest {

    @TempDir
    Path dir;

    @Test
    void noConfig_plansTheBuiltInExample_brokerTwoGated_brokerOneElected() {
        CommandRunner.Result r = CommandRunner.run(new PlanCommand());
        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains("built-in example cluster")
                .contains("Nothing is changed")
                .contains("wait-for-sync, threshold 10%, max.per.run 5");
        String brokerTwo = line(r.out(), "     2  yes");
        assertThat(brokerTwo).contains("gated").contains("60.00%");
        String brokerOne = line(r.out(), "     1  yes");
        assertThat(brokerOne).contains("open").contains("under threshold: 0/10 = 0.00% out of sync <= threshold 10%");
        assertThat(r.out())
                .contains("Elections this run would make now: 3")
                .contains("orders-1: leader 0 -> 1")
                .contains("orders-4: leader 0 -> 1")
                .contains("orders-7: leader 0 -> 1")
                .contains("Held back: 4 by the gate, 0 by the cap.");
    }

    @Test
    void builtInExample_saysItsKeysMatchNoPreset_nearestKipExample_andWhichKeysDiffer() {
        CommandRunner.Result r = CommandRunner.run(new PlanCommand());

        assertThat(r.out().lines())
                .contains("Keys in force match no preset (differs from kip-example in:"
                        + " leader.imbalance.election.wait.for.sync.threshold.percent, leader.imbalance.election.max.per.run,"
                        + " leader.imbalance.election.throttle.interval.ms)");
    }

    @Test
    void planUnderRecommendedPaced_saysSo_underThePolicyLine() {
        PacerConfig paced = PresetMatch.configOf(PolicyRegistry.named("recommended-paced"));
        StringWriter text = new StringWriter();

        PlanReport.print(new PrintWriter(text), "test", PlanCommand.plan(ExampleCluster.snapshot(), paced));

        List<String> lines = text.toString().lines().toList();
        assertThat(lines.get(1)).startsWith("Policy: wait-for-sync, threshold 5%, max.per.run 10");
        assertThat(lines.get(2)).isEqualTo("Keys in force: preset recommended-paced");
    }

    @Test
    void downBroker_showsPhaseInactive_notOpen() {
        ClusterSnapshot down = ExampleCluster.snapshot().toBuilder()
                .replaceBroker(BrokerState.fenced(0))
                .build();
        StringWriter text = new StringWriter();
        PlanReport.print(new PrintWriter(text), "test", PlanCommand.plan(down, ExampleCluster.policy()));

        assertThat(line(text.toString(), "     0  no")).contains("inactive").doesNotContain("open");
    }

    @Test
    void missingConfigFile_isAUsageError() {
        CommandRunner.Result r = CommandRunner.run(
                new PlanCommand(), "--config", dir.resolve("none.properties").toString());
        assertThat(r.exitCode()).isEqualTo(PlanCommand.EXIT_USAGE);
        assertThat(r.err()).contains("none.properties: file not found").doesNotContain("\tat ");
    }

    @Test
    void unreachableCluster_saysSoOnceWithinTheTimeOut_exitsThree() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path f = dir.resolve("agent.properties");
        Duration timeout = Duration.ofMillis(3000);
        Files.writeString(
                f, "bootstrap.servers=127.0.0.1:" + port + "\npacer.request.timeout.ms=" + timeout.toMillis() + "\n");
        long start = System.nanoTime();
        CommandRunner.Result r = CommandRunner.run(new PlanCommand(), "--config", f.toString());
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(r.exitCode()).isEqualTo(PlanCommand.EXIT_CLUSTER);
        assertThat(r.err().lines())
                .containsExactly("Error: cannot reach the cluster: no answer from the Kafka cluster at 127.0.0.1:"
                        + port + " within " + timeout.toMillis()
                        + " ms; check bootstrap.servers and that the brokers are up");
        // Bounded by the configured time-out, not a wall-clock figure: less than two of them means one, not one per
        // read.
        assertThat(took).as("one time-out, not one per read").isLessThan(timeout.multipliedBy(2));
    }

    @Test
    void unresolvableHost_namesTheHostThatDoesNotResolve_exitsThree() throws Exception {
        Path f = dir.resolve("agent.properties");
        Files.writeString(f, "bootstrap.servers=nosuchhost.invalid:9092\n");
        CommandRunner.Result r = CommandRunner.run(new PlanCommand(), "--config", f.toString());

        assertThat(r.exitCode()).isEqualTo(PlanCommand.EXIT_CLUSTER);
        assertThat(r.err().lines())
                .containsExactly("Error: cannot reach the cluster: bootstrap.servers=nosuchhost.invalid:9092:"
                        + " the host name nosuchhost.invalid does not resolve (check the name and the host's DNS)");
    }

    private static String line(String text, String prefix) {
        return text.lines()
                .filter(l -> l.startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in\n" + text));
    }
}
