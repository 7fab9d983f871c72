package io.leaderpacer.loadtest.testbed;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * An existing cluster (an operator's staging cluster): the test only produces, consumes, runs the agent, and stops and
 * starts one broker through the operator's command.
 *
 * <p>The command is a shell template run once to stop and once to start: {@code {action}} becomes {@code stop} or
 * {@code start}, {@code {broker}} the broker id and {@code {mode}} {@code kill} or {@code controlled}; for example
 * {@code ssh kafka-{broker} sudo systemctl {action} kafka}. It must return when the action is done. No CPU quota can be
 * set from here: the broker is as saturated as its own catch-up makes it.
 */
public final class ExternalTarget implements TargetCluster {

    /** Bound on one run of the command. */
    private static final Duration COMMAND_LIMIT = Duration.ofMinutes(5);

    private final Map<String, Object> clientProperties;
    private final List<Integer> brokers;
    private final String restartCommand;

    public ExternalTarget(Map<String, Object> clientProperties, List<Integer> brokers, String restartCommand) {
        this.clientProperties = Map.copyOf(clientProperties);
        this.brokers = List.copyOf(brokers);
        this.restartCommand = Objects.requireNonNull(restartCommand, "restartCommand");
    }

    /**
     * Connects to the cluster to learn its brokers.
     *
     * @throws IllegalStateException naming the address when the cluster does not answer
     */
    public static ExternalTarget connect(Map<String, Object> clientProperties, String restartCommand) {
        try (Admin admin = Admin.create(new HashMap<>(clientProperties))) {
            List<Integer> ids = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
                    .map(Node::id)
                    .sorted()
                    .toList();
            return new ExternalTarget(clientProperties, ids, restartCommand);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException(
                    "cannot reach the cluster at " + clientProperties.get("bootstrap.servers") + " within 30 s: "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public String description() {
        return "existing cluster at " + clientProperties.get("bootstrap.servers") + ", broker restarted by: "
                + restartCommand;
    }

    @Override
    public Map<String, Object> clientProperties() {
        return new HashMap<>(clientProperties);
    }

    @Override
    public List<Integer> brokerIds() {
        return brokers;
    }

    @Override
    public void stopBroker(int broker, ShutdownMode mode) throws Exception {
        run(command("stop", broker, mode));
    }

    @Override
    public void startBroker(int broker) throws Exception {
        run(command("start", broker, ShutdownMode.CONTROLLED));
    }

    /** The command line for one action. */
    String command(String action, int broker, ShutdownMode mode) {
        return restartCommand
                .replace("{action}", action)
                .replace("{broker}", Integer.toString(broker))
                .replace("{mode}", mode == ShutdownMode.KILL ? "kill" : "controlled");
    }

    private static void run(String command) throws Exception {
        // Output goes to a file, not a pipe: a chatty command must not block on a full pipe.
        Path out = Files.createTempFile("leader-pacer-restart", ".log");
        Process p = new ProcessBuilder("/bin/sh", "-c", command)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            if (!p.waitFor(COMMAND_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the restart command did not finish within " + COMMAND_LIMIT.toMinutes()
                        + " minutes: " + command);
            }
            String output = Files.readString(out, StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                throw new IllegalStateException("the restart command exited with status " + p.exitValue() + ": "
                        + command + (output.isEmpty() ? "" : " (output: " + last(output) + ")"));
            }
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
            Files.deleteIfExists(out);
        }
    }

    private static String last(String output) {
        return output.length() <= 300 ? output : "..." + output.substring(output.length() - 300);
    }

    @Override
    public OptionalLong pid(int broker) {
        return OptionalLong.empty();
    }

    @Override
    public void close() {
        // The cluster is the operator's: nothing to stop.
    }
}
