package io.leaderpacer.cluster;

import io.leaderpacer.cluster.process.ChildJvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where each node of a process cluster lives and how it is configured: its directory under the cluster's base, its
 * ports, its {@code server.properties} as the cluster makes it, and its JVM options.
 *
 * <p>Why apart from {@link ProcessKafkaCluster}: the layout is decided once, before any process runs, and never
 * changes; the cluster's life (start, kill, restart, close) only reads it.
 */
final class NodeLayout {

    /** One node as laid out: the node, its properties as written, and its TLS client port (0 without one). */
    record Node(KafkaNode node, Map<String, String> properties, int tlsPort) {}

    private NodeLayout() {}

    /** The settings' base directory, which must be empty since the cluster deletes it, or a new one. */
    static Path prepareBase(ClusterSettings settings) {
        if (settings.baseDirectory() == null) {
            return Directories.newBase();
        }
        Path dir = settings.baseDirectory();
        try {
            Files.createDirectories(dir);
            try (var entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("base directory " + dir
                            + " is not empty: it must be the cluster's own, since close() deletes it");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the base directory " + dir, e);
        }
        return dir;
    }

    /**
     * The controller ({@code controllerId}) first, then the brokers by id, each on free ports of 127.0.0.1, with its
     * directory made and its {@code server.properties} written.
     */
    static List<Node> create(Path base, ClusterSettings settings, int controllerId) {
        boolean tls = settings.tls() != null;
        List<Integer> ports = FreePorts.take(settings.brokers() * (tls ? 2 : 1) + 1);
        String voters = ServerProperties.voters(controllerId, ports.get(0));
        List<Node> out = new ArrayList<>();
        KafkaNode controller =
                node(base, settings, controllerId, NodeRole.CONTROLLER, ports.get(0), settings.controllerHeap());
        out.add(written(
                controller,
                ServerProperties.controller(controllerId, controller.port, voters, controller.data, settings),
                0));
        for (int id = 0; id < settings.brokers(); id++) {
            KafkaNode broker = node(base, settings, id, NodeRole.BROKER, ports.get(id + 1), settings.brokerHeap());
            int tlsPort = tls ? ports.get(settings.brokers() + 1 + id) : 0;
            out.add(written(
                    broker, ServerProperties.broker(id, broker.port, tlsPort, voters, broker.data, settings), tlsPort));
        }
        return out;
    }

    private static Node written(KafkaNode node, Map<String, String> properties, int tlsPort) {
        ServerProperties.write(node.properties, properties);
        return new Node(node, properties, tlsPort);
    }

    private static KafkaNode node(Path base, ClusterSettings settings, int id, NodeRole role, int port, String heap) {
        Path dir = base.resolve(role.word + "-" + id);
        try {
            Files.createDirectories(dir.resolve("tmp"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        return new KafkaNode(id, role, port, dir, ChildJvm.options(heap, dir, settings.jvmOptions()));
    }
}
