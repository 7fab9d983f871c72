package io.leaderpacer.cluster;

import io.leaderpacer.cluster.process.ChildLogging;
import io.leaderpacer.cluster.process.ChildProcesses;
import io.leaderpacer.cluster.process.LogTail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Formats every node's data directory with Kafka's storage tool, all nodes at once.
 *
 * <p>Why the tool rather than writing {@code meta.properties} by hand: the controller's directory also gets a
 * bootstrap snapshot whose format depends on the Kafka version, and the class path may hold another version.
 * Why {@code --cluster-id=<id>} in one argument: a random id may start with {@code -}, which the tool would
 * otherwise read as an option. Why in parallel: each run is a short JVM that mostly loads classes.
 */
final class StorageFormat {

    /** Main class of the storage tool in every 3.x and 4.x version. */
    static final String TOOL_MAIN = "kafka.tools.StorageTool";
    /** A short-lived tool: small heap, no optimising compiler. */
    private static final List<String> TOOL_JVM = List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private StorageFormat() {}

    /** Formats all nodes; throws naming the first node whose format failed or did not finish within {@code timeout}. */
    static void formatAll(List<KafkaNode> nodes, String clusterId, ChildProcesses children, Duration timeout) {
        List<Process> runs = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (KafkaNode node : nodes) {
            offsets.add(LogTail.sizeOf(node.log));
            List<String> options = new ArrayList<>(TOOL_JVM);
            options.add("-Djava.io.tmpdir=" + node.directory);
            options.addAll(ChildLogging.options(node.directory));
            runs.add(children.start(
                    options,
                    TOOL_MAIN,
                    List.of("format", "--cluster-id=" + clusterId, "-c", node.properties.toString()),
                    node.log));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int i = 0; i < nodes.size(); i++) {
            KafkaNode node = nodes.get(i);
            Process run = runs.get(i);
            try {
                if (!run.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw formatFailure(
                            node,
                            "did not finish formatting its storage within " + timeout.toSeconds() + " s",
                            offsets.get(i));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProcessClusterException("interrupted while formatting " + node.label(), e);
            }
            if (run.exitValue() != 0) {
                throw formatFailure(
                        node,
                        "failed to format its storage (storage tool exited with status " + run.exitValue() + ")",
                        offsets.get(i));
            }
        }
    }

    private static ProcessClusterException formatFailure(KafkaNode node, String what, long offset) {
        return new ProcessClusterException(node.label() + " " + what + "; last lines of " + node.log + ":"
                + System.lineSeparator() + LogTail.of(node.log, offset, 20));
    }
}
