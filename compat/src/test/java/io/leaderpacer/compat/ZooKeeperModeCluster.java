package io.leaderpacer.compat;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Test support: a Kafka 3.x cluster in ZooKeeper mode (one ZooKeeper, one broker), as separate processes from that
 * version's jars, which bring ZooKeeper's server too.
 *
 * <p>Why: the agent must refuse such a cluster, and a real one shows what it really answers (no finalized
 * {@code metadata.version}); Kafka 4 has no ZooKeeper mode, and the process cluster of the cluster module is KRaft
 * only. Both processes are kept by their handles and stopped by PID.
 */
final class ZooKeeperModeCluster implements AutoCloseable {

    private final List<Process> processes = new ArrayList<>();
    private final Path dir;
    private final String bootstrap;

    private ZooKeeperModeCluster(Path dir, String bootstrap) {
        this.dir = dir;
        this.bootstrap = bootstrap;
    }

    /** Starts ZooKeeper, then the broker; returns once the broker answers. */
    static ZooKeeperModeCluster start(String version, Path dir) throws IOException {
        int zkPort = freePort();
        int brokerPort = freePort();
        String classpath = KafkaVersions.classpath(version);
        ZooKeeperModeCluster c = new ZooKeeperModeCluster(dir, "127.0.0.1:" + brokerPort);
        try {
            Path zkData = Files.createDirectories(dir.resolve("zookeeper"));
            // Kafka 3.x logs through reload4j: WARN and up, plus the broker's start-up lines.
            Files.writeString(
                    dir.resolve("log4j.properties"),
                    "log4j.rootLogger=WARN, OUT\n"
                            + "log4j.appender.OUT=org.apache.log4j.ConsoleAppender\n"
                            + "log4j.appender.OUT.layout=org.apache.log4j.PatternLayout\n"
                            + "log4j.appender.OUT.layout.ConversionPattern=%d %-5p %c - %m%n\n"
                            + "log4j.logger.kafka.server.KafkaServer=INFO\n",
                    StandardCharsets.UTF_8);
            c.spawn(
                    classpath,
                    List.of("-Dzookeeper.admin.enableServer=false", "-Dzookeeper.4lw.commands.whitelist="),
                    "org.apache.zookeeper.server.ZooKeeperServerMain",
                    List.of(Integer.toString(zkPort), zkData.toString()),
                    dir.resolve("zookeeper.log"));
            Properties p = new Properties();
            p.put("broker.id", "0");
            p.put("zookeeper.connect", "127.0.0.1:" + zkPort);
            p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
            p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
            p.put(
                    "log.dirs",
                    Files.createDirectories(dir.resolve("broker-data")).toString());
            p.put("offsets.topic.replication.factor", "1");
            p.put("transaction.state.log.replication.factor", "1");
            p.put("transaction.state.log.min.isr", "1");
            // Off, so that the refusal seen is the one for ZooKeeper mode and not the one for Kafka's own rebalancing.
            p.put("auto.leader.rebalance.enable", "false");
            Path props = dir.resolve("server.properties");
            try (Writer out = Files.newBufferedWriter(props, StandardCharsets.UTF_8)) {
                p.store(out, null);
            }
            c.spawn(
                    classpath,
                    List.of("-Xmx384m", "-XX:+UseSerialGC"),
                    "kafka.Kafka",
                    List.of(props.toString()),
                    dir.resolve("broker.log"));
            try (Admin admin = c.admin()) {
                await().atMost(Duration.ofSeconds(90))
                        .ignoreExceptions()
                        .until(() -> admin.describeCluster()
                                        .nodes()
                                        .get(5, TimeUnit.SECONDS)
                                        .size()
                                == 1);
            }
            return c;
        } catch (RuntimeException | IOException e) {
            c.close();
            throw e;
        }
    }

    String bootstrapServers() {
        return bootstrap;
    }

    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    String brokerLog() throws IOException {
        return Files.readString(dir.resolve("broker.log"), StandardCharsets.UTF_8);
    }

    private void spawn(String classpath, List<String> jvm, String main, List<String> args, Path log)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvm);
        cmd.add("-Djava.io.tmpdir=" + dir);
        cmd.add("-Dlog4j.configuration=" + dir.resolve("log4j.properties").toUri());
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(main);
        cmd.addAll(args);
        processes.add(new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** SIGTERM to the broker, then to ZooKeeper, each by PID with a bounded wait and SIGKILL after it. */
    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.toHandle().destroy();
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.toHandle().destroyForcibly();
                    p.waitFor(20, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UncheckedIOException(new IOException("interrupted while stopping pid " + p.pid()));
            }
        }
    }
}
