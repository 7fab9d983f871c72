package io.leaderpacer.cli;

import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Short commands against a real cluster print their output and nothing else: no INFO lines such as the policy in
 * force or a created topic, unless {@code --verbose} asks for them.
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ShortCommandQuietClusterTest {

    private static EmbeddedKafkaCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder().brokers(1).build().start();
    }

    @AfterAll
    static void stopCluster() {
        PacerLogging.configure(PacerLogging.Mode.SHORT, false, null);
        if (cluster != null) {
            cluster.close();
        }
    }

    /** What a command printed, its own output and the log on the process's standard streams. */
    private record Printed(int status, String out, String err, String log) {}

    private static Printed pacer(String... args) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (PrintStream capture = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            System.setErr(capture);
            picocli.CommandLine cmd = PacerCli.commandLine();
            cmd.setOut(new PrintWriter(out, true));
            cmd.setErr(new PrintWriter(err, true));
            int status = cmd.execute(args);
            return new Printed(status, out.toString(), err.toString(), log.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
    }

    @Test
    void planAndConfig_printOnlyTheirOutput_verboseAddsTheLog() throws Exception {
        Printed alter = pacer(
                "config",
                "--bootstrap-server",
                cluster.bootstrapServers(),
                "--alter",
                "--add-config",
                "leader.imbalance.election.max.per.run=50");
        assertThat(alter.status()).as(alter.toString()).isZero();
        assertThat(alter.out()).contains("Set leader.imbalance.election.max.per.run=50");
        assertThat(alter.log()).as("no INFO such as a created topic").isEmpty();
        assertThat(alter.err()).isEmpty();

        Path config = dir.resolve("pacer.properties");
        Files.writeString(config, "bootstrap.servers=" + cluster.bootstrapServers() + "\n");
        Printed plan = pacer("plan", "--config", config.toString());
        assertThat(plan.status()).as(plan.toString()).isZero();
        assertThat(plan.out()).startsWith("Plan for " + cluster.bootstrapServers());
        assertThat(plan.log()).as("no 'policy in force' line").isEmpty();
        assertThat(plan.err()).isEmpty();

        Printed verbose = pacer("plan", "--config", config.toString(), "--verbose");
        assertThat(verbose.status()).isZero();
        assertThat(verbose.log()).contains("policy in force");
    }
}
