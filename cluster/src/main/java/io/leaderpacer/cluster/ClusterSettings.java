package io.leaderpacer.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything a {@link ProcessKafkaCluster} was built with, frozen.
 *
 * @param brokers          number of brokers, ids 0..brokers-1
 * @param brokerConfig     extra server properties for every node (see {@link ServerProperties} on why the controller
 *                         gets them too)
 * @param controllerConfig extra server properties for the controller only, applied after {@code brokerConfig}
 * @param brokerHeap       {@code -Xmx} of each broker JVM, e.g. {@code 512m}
 * @param controllerHeap   {@code -Xmx} of the controller JVM
 * @param jvmOptions       extra options for every broker and controller JVM (after the defaults, so they win)
 * @param baseDirectory    where the nodes' directories go; null for a new temporary directory
 * @param classpath        class path of the children: Kafka's server, its dependencies and an SLF4J binding
 * @param javaExecutable   the {@code java} launcher of the children
 * @param startTimeout     bound of {@code start()} for formatting and for every broker to become unfenced
 * @param stopTimeout      how long a SIGTERM is given before SIGKILL
 * @param tls              the brokers' extra TLS client listener; null for none
 */
record ClusterSettings(
        int brokers,
        Map<String, String> brokerConfig,
        Map<String, String> controllerConfig,
        String brokerHeap,
        String controllerHeap,
        List<String> jvmOptions,
        Path baseDirectory,
        String classpath,
        Path javaExecutable,
        Duration startTimeout,
        Duration stopTimeout,
        TlsListener tls) {

    ClusterSettings {
        brokerConfig = Map.copyOf(brokerConfig);
        controllerConfig = Map.copyOf(controllerConfig);
        jvmOptions = List.copyOf(jvmOptions);
    }
}
