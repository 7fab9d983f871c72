package io.leaderpacer.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The {@code server.properties} of each node.
 *
 * <p>Why these defaults: they were found to work for a small cluster on a small machine (see docs/CLUSTER.md): a
 * 3 s broker session so that a killed broker is fenced and can register again quickly, no automatic leader
 * rebalance (the agent under test does that job; a user may turn it back on), internal topics replicated as far as
 * the cluster allows, and few threads. Everything is bound to 127.0.0.1. With a {@link TlsListener} a broker has a
 * second listener, {@code SSL}, for clients; the nodes keep talking PLAINTEXT among themselves.
 *
 * <p>Why the user's settings also go to the controller: in KRaft some keys that look like broker settings are read
 * by the controller ({@code auto.leader.rebalance.enable}, {@code leader.imbalance.*},
 * {@code broker.session.timeout.ms}); a setting that only reached the brokers would silently do nothing.
 */
final class ServerProperties {

    /** Keys this class decides (roles, ids, listeners, directories): a user value would break the cluster's layout. */
    static final Set<String> RESERVED = Set.of("process.roles", "node.id", "broker.id", "controller.quorum.voters",
            "controller.quorum.bootstrap.servers", "controller.listener.names", "listeners", "advertised.listeners",
            "inter.broker.listener.name", "listener.security.protocol.map", "log.dirs", "log.dir", "metadata.log.dir");

    /** Listener name of the brokers. */
    static final String BROKER_LISTENER = "PLAINTEXT";
    /** Listener name of the controller. */
    static final String CONTROLLER_LISTENER = "CONTROLLER";

    private ServerProperties() {
    }

    /** Defaults for every node; the user's settings override them. */
    static Map<String, String> defaults(int brokers) {
        String rf = Integer.toString(Math.min(3, brokers));
        Map<String, String> p = new LinkedHashMap<>();
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "500");
        p.put("auto.leader.rebalance.enable", "false");
        p.put("offsets.topic.replication.factor", rf);
        p.put("offsets.topic.num.partitions", Integer.toString(ProcessKafkaCluster.OFFSETS_TOPIC_PARTITIONS));
        p.put("transaction.state.log.replication.factor", rf);
        p.put("transaction.state.log.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("background.threads", "2");
        p.put("log.cleaner.threads", "1");
        p.put("num.recovery.threads.per.data.dir", "1");
        return p;
    }

    /** {@code controller.quorum.voters} for the one controller: a static quorum, formatted without extra options. */
    static String voters(int controllerId, int controllerPort) {
        return controllerId + "@127.0.0.1:" + controllerPort;
    }

    static Map<String, String> broker(int id, int port, String voters, Path dataDir, ClusterSettings settings) {
        return broker(id, port, 0, voters, dataDir, settings);
    }

    /** A broker's properties; {@code tlsPort} is the port of its TLS client listener, used when the settings have one. */
    static Map<String, String> broker(int id, int port, int tlsPort, String voters, Path dataDir, ClusterSettings settings) {
        Map<String, String> p = defaults(settings.brokers());
        p.putAll(settings.brokerConfig());
        p.put("process.roles", "broker");
        p.put("node.id", Integer.toString(id));
        p.put("controller.quorum.voters", voters);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        String listeners = BROKER_LISTENER + "://127.0.0.1:" + port;
        String map = securityMap();
        if (settings.tls() != null) {
            listeners += "," + TlsListener.NAME + "://127.0.0.1:" + tlsPort;
            map += "," + TlsListener.NAME + ":SSL";
            p.putAll(settings.tls().serverProperties());
        }
        p.put("listeners", listeners);
        p.put("advertised.listeners", listeners);
        p.put("inter.broker.listener.name", BROKER_LISTENER);
        p.put("listener.security.protocol.map", map);
        p.put("log.dirs", dataDir.toString());
        return p;
    }

    static Map<String, String> controller(int id, int port, String voters, Path dataDir, ClusterSettings settings) {
        Map<String, String> p = defaults(settings.brokers());
        p.putAll(settings.brokerConfig());
        p.putAll(settings.controllerConfig());
        p.put("process.roles", "controller");
        p.put("node.id", Integer.toString(id));
        p.put("controller.quorum.voters", voters);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("listeners", CONTROLLER_LISTENER + "://127.0.0.1:" + port);
        p.put("listener.security.protocol.map", securityMap());
        p.put("log.dirs", dataDir.toString());
        return p;
    }

    private static String securityMap() {
        return CONTROLLER_LISTENER + ":PLAINTEXT," + BROKER_LISTENER + ":PLAINTEXT";
    }

    static void write(Path file, Map<String, String> values) {
        Properties p = new Properties();
        p.putAll(values);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(out, "generated by leader-pacer-cluster");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
