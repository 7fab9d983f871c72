package io.leaderpacer.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
        home = UnpackedTarball.unpack(unpacked);
    }

    private static UnpackedTarball.Run pacer(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/pacer").toString()));
        command.addAll(List.of(args));
        return UnpackedTarball.run(
                home, Files.createTempFile(unpacked, "pacer", ".log"), 60_000, command.toArray(String[]::new));
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
    void userDocs_inTheTarball_linkOnlyToFilesItHolds() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : DocLinksTest.FRONT_DOORS) {
            assertThat(home.resolve(doc)).isRegularFile();
            broken.addAll(DocLinksTest.brokenLinks(home, doc, Files.readString(home.resolve(doc))));
        }

        assertThat(broken).as("links the unpacked tarball cannot follow").isEmpty();
    }

    @Test
    void binPacer_version_printsTheBuildsVersion() throws Exception {
        UnpackedTarball.Run r = pacer("--version");

        assertThat(r.status()).as(r.output()).isZero();
        assertThat(r.output()).startsWith("pacer " + System.getProperty("pacer.version"));
    }

    @Test
    void binPacer_plan_runsWithoutTheDemosLibraries() throws Exception {
        UnpackedTarball.Run r = pacer("plan");

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
