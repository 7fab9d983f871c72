package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.config.ClosestKey;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.ConfigAssignments;
import io.leaderpacer.agent.dynamic.ConfigChange;
import io.leaderpacer.agent.dynamic.ConfigOrigin;
import io.leaderpacer.agent.dynamic.DescribedConfig;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.engine.config.ConfigKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * {@code pacer config}: the dynamic, cluster-wide policy configuration, with the workflow of
 * {@code kafka-configs.sh}.
 *
 * <p>Why: KIP-1358's workflow is {@code kafka-configs.sh --alter --add-config k=v}, but Kafka masks unknown keys on
 * describe, so the overrides live in the agent's own config topic and this command edits it. Every value is checked
 * with the engine's rules before anything is written; an invalid one is refused with the key, the value and the
 * allowed range, and the stored configuration stays as it was.
 */
@Command(name = "config",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Describe or change Leader Pacer's dynamic configuration, read by every agent on its next run.",
            "Values set here override the agents' properties files; deleting one falls back to them."},
        footer = {"",
            "Examples:",
            "  pacer config --bootstrap-server HOST:9092 --describe",
            "  pacer config --bootstrap-server HOST:9092 --alter \\",
            "      --add-config leader.imbalance.election.algorithm=wait-for-sync",
            "  pacer config --bootstrap-server HOST:9092 --alter \\",
            "      --add-config 'preferred.leader.deprioritized.list=[1,2]'",
            "  pacer config --bootstrap-server HOST:9092 --alter \\",
            "      --delete-config preferred.leader.deprioritized.list",
            "",
            "Exit status: 0 done; 1 a key or value was refused (nothing written); 2 bad usage; 3 the cluster could not"
                + " be reached, read or written."})
public final class ConfigCommand implements Callable<Integer> {

    /** Exit status when a key or value is refused. */
    public static final int EXIT_REFUSED = 1;
    /** Exit status for bad usage (picocli's own convention). */
    public static final int EXIT_USAGE = 2;
    /** Exit status when the cluster could not be reached, read or written. */
    public static final int EXIT_CLUSTER = 3;

    /** Gives access to the output streams picocli was configured with (tests capture them). */
    @Spec
    private CommandSpec spec;

    @Option(names = "--bootstrap-server", required = true, paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "The Kafka cluster whose agents' configuration to show or change.")
    private String bootstrapServer;

    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Client properties (TLS, SASL, ...) used to reach the cluster.")
    private Path commandConfig;

    /** Exactly one of --alter / --describe, as with kafka-configs.sh. */
    @ArgGroup(exclusive = true, multiplicity = "1")
    private Action action;

    @Option(names = "--add-config", paramLabel = "KEY=VALUE[,KEY=VALUE...]",
            description = "With --alter: keys to set. A list value goes in brackets: preferred.leader.deprioritized.list=[1,2].")
    private List<String> addConfig = new ArrayList<>();

    @Option(names = "--delete-config", paramLabel = "KEY[,KEY...]",
            description = "With --alter: keys whose override to remove.")
    private List<String> deleteConfig = new ArrayList<>();

    @Option(names = "--config-topic", paramLabel = "TOPIC", defaultValue = TopicConfigSource.DEFAULT_TOPIC,
            description = "The agents' config topic (default: ${DEFAULT-VALUE}).")
    private String configTopic;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "30000",
            description = "How long to wait for the cluster (default: ${DEFAULT-VALUE}).")
    private long timeoutMs;

    /** The two actions. */
    static final class Action {
        @Option(names = "--alter", required = true, description = "Change the configuration (with --add-config and/or --delete-config).")
        boolean alter;

        @Option(names = "--describe", required = true, description = "Show every key, its value and whether it is set dynamically.")
        boolean describe;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> set;
        Set<String> delete;
        try {
            if (action.describe && (!addConfig.isEmpty() || !deleteConfig.isEmpty())) {
                throw new ParameterException(spec.commandLine(), "--add-config and --delete-config go with --alter, not --describe");
            }
            if (action.alter && addConfig.isEmpty() && deleteConfig.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--alter needs --add-config and/or --delete-config");
            }
            if (timeoutMs < 1) {
                throw new ParameterException(spec.commandLine(), "--timeout-ms must be >= 1, was " + timeoutMs);
            }
            set = ConfigAssignments.parseAdd(addConfig);
            delete = ConfigAssignments.parseDelete(deleteConfig);
            for (String key : set.keySet()) {
                if (ConfigKey.forName(key) == null) {
                    err.println("Error: unknown key '" + key + "'" + ClosestKey.suggestion(key, ConfigKey.names())
                            + "; known keys: " + String.join(", ", ConfigKey.names()));
                    err.println("Nothing was changed.");
                    return EXIT_REFUSED;
                }
            }
        } catch (ParameterException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            err.println("Error: " + e.getMessage());
            return EXIT_USAGE;
        }

        Map<String, Object> client;
        try {
            client = clientProperties();
        } catch (IOException e) {
            err.println("Error: " + e.getMessage());
            return EXIT_USAGE;
        }
        Duration timeout = Duration.ofMillis(timeoutMs);
        try (Admin admin = Admin.create(client);
             TopicConfigSource source = new TopicConfigSource(new CompactedTopic(admin, client, configTopic, timeout))) {
            if (action.describe) {
                printDescription(out, source.describe());
            } else {
                ConfigChange change = source.update(set, delete);
                printChange(out, change, delete);
            }
            return 0;
        } catch (IllegalArgumentException e) {
            // io.leaderpacer.engine.config.ConfigException included: key, value and allowed range
            err.println("Error: " + e.getMessage());
            err.println("Nothing was changed.");
            return EXIT_REFUSED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Error: interrupted");
            return EXIT_CLUSTER;
        } catch (TimeoutException | ExecutionException | org.apache.kafka.common.KafkaException e) {
            err.println("Error: " + ClusterErrors.describe(e, bootstrapServer, timeout, SecretRedactor.of(stringProperties(client)), client)
                    + (action.alter && !ClusterErrors.isUnresolvable(e, bootstrapServer) ? "; the change may not have been written" : ""));
            return EXIT_CLUSTER;
        }
    }

    private static Map<String, String> stringProperties(Map<String, Object> client) {
        Map<String, String> out = new HashMap<>();
        client.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    private Map<String, Object> clientProperties() throws IOException {
        Map<String, Object> props = new HashMap<>();
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMs / 2)));
        if (commandConfig != null) {
            Properties file = new Properties();
            try (InputStream in = Files.newInputStream(commandConfig)) {
                file.load(in);
            } catch (NoSuchFileException e) {
                throw new IOException("--command-config " + commandConfig + ": no such file");
            } catch (IOException | IllegalArgumentException e) {
                throw new IOException("--command-config " + commandConfig + ": cannot be read: " + e.getMessage());
            }
            file.stringPropertyNames().forEach(k -> props.put(k, file.getProperty(k)));
        }
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServer);
        props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "leader-pacer-config");
        return props;
    }

    private void printDescription(PrintWriter out, List<DescribedConfig> entries) {
        out.println("Leader Pacer configuration in topic " + configTopic + " (cluster " + bootstrapServer + "):");
        for (DescribedConfig c : entries) {
            String source = c.origin() == ConfigOrigin.DYNAMIC ? "dynamic" : "default";
            out.println("  " + c.key() + "=" + c.value() + "  (" + source
                    + c.problem().map(p -> "; NOT IN FORCE: " + p).orElse("") + ")");
        }
        out.println("Keys shown as default take each agent's properties-file value when it has one, else the value shown.");
        out.flush();
    }

    private void printChange(PrintWriter out, ConfigChange change, Set<String> asked) {
        change.set().forEach((k, v) -> out.println("Set " + k + "=" + v));
        change.deleted().forEach(k -> out.println("Deleted " + k + " (agents fall back to their properties file or the default)"));
        asked.stream().filter(k -> !change.deleted().contains(k))
                .forEach(k -> out.println("Not overridden, nothing to delete: " + k));
        out.println("Completed updating Leader Pacer's dynamic configuration; agents apply it on their next run.");
        out.flush();
    }
}
