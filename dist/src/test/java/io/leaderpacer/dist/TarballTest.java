package io.leaderpacer.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tarball {@code mvn package} builds, unpacked as on a host without Maven: its layout, {@code bin/pacer}
 * starting from it, and no Kafka server classes on the class path of the agent's commands.
 */
@Tag("cluster")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TarballTest {

    @TempDir
    static Path unpacked;

    private static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("pacer.tarball"));
        assertThat(tarball).exists();
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", unpacked.toString())
                .inheritIO()
                .start();
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).isZero();
        home = unpacked.resolve(System.getProperty("pacer.dist.name"));
    }

    /** Exit status and output of {@code bin/pacer ARGS}, run from a directory of its own. */
    private record Run(int status, String output) {}

    private static Run pacer(String... args) throws Exception {
        Path work = Files.createTempDirectory(unpacked, "work");
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/pacer").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), output);
    }

    @Test
    void tarball_hasTheScriptTheLibrariesTheConfigurationAndTheSystemdUnit() {
        assertThat(home.resolve("bin/pacer")).isExecutable();
        assertThat(home.resolve("lib")).isDirectory();
        assertThat(home.resolve("config/pacer.properties")).content().contains("bootstrap.servers=");
        assertThat(home.resolve("config/systemd/pacer.service"))
                .content()
                .contains("ExecStart=/opt/pacer/bin/pacer run --config /etc/pacer/pacer.properties");
    }

    @Test
    void readmeAndAgentDoc_inTheTarball_linkOnlyToFilesItHolds() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : DocLinksTest.FRONT_DOORS) {
            assertThat(home.resolve(doc)).isRegularFile();
            broken.addAll(DocLinksTest.brokenLinks(home, doc, Files.readString(home.resolve(doc))));
        }

        assertThat(broken).as("links the unpacked tarball cannot follow").isEmpty();
    }

    @Test
    void binPacer_version_printsTheBuildsVersion() throws Exception {
        Run r = pacer("--version");

        assertThat(r.status()).as(r.output()).isZero();
        assertThat(r.output()).startsWith("pacer " + System.getProperty("pacer.version"));
    }

    @Test
    void binPacer_plan_runsWithoutTheDemosLibraries() throws Exception {
        Run r = pacer("plan");

        assertThat(r.status()).as(r.output()).isZero();
        assertThat(r.output()).contains("Plan for the built-in example cluster");
    }

    @Test
    void agentClassPath_carriesNoKafkaServerClasses() throws IOException {
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            List<Path> all = jars.filter(p -> p.toString().endsWith(".jar")).toList();
            assertThat(all)
                    .extracting(p -> p.getFileName().toString())
                    .anyMatch(n -> n.startsWith("leader-pacer-agent-"))
                    .anyMatch(n -> n.startsWith("kafka-clients-"))
                    .noneMatch(n -> n.startsWith("kafka_")
                            || n.startsWith("kafka-server")
                            || n.startsWith("kafka-raft")
                            || n.startsWith("kafka-metadata")
                            || n.startsWith("kafka-storage")
                            || n.startsWith("leader-pacer-embedded"));
            for (Path jar : all) {
                try (ZipFile zip = new ZipFile(jar.toFile())) {
                    assertThat(zip.getEntry("kafka/server/KafkaRaftServer.class"))
                            .as(jar.toString())
                            .isNull();
                    assertThat(zip.getEntry("org/apache/kafka/raft/KafkaRaftClient.class"))
                            .as(jar.toString())
                            .isNull();
                }
            }
        }
        assertThat(home.resolve("lib/demo"))
                .isDirectoryContaining(p -> p.getFileName().toString().startsWith("kafka_"));
    }
}
