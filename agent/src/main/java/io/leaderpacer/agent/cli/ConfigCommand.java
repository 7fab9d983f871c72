package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.config.ClosestKey;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.TimeoutMs;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.ConfigAssignments;
import io.leaderpacer.agent.dynamic.ConfigChange;
import io.leaderpacer.agent.dynamic.ConfigOrigin;
import io.leaderpacer.agent.dynamic.DescribedConfig;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.policy.PolicyEntry;
import io.leaderpacer.engine.policy.PolicyRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 *
 * <p>{@code --preset NAME} writes a production preset of the engine's policy registry by name, through the same
 * write and the same checks as {@code --alter}: the preset's keys are set, and the override of every other key a
 * preset decides is removed, so that what runs is the preset and not a mix with the one before ({@code --preset
 * immediate} removes them all). Why by name: the recommended keys used to exist only in a document, copied by hand.
 * With {@code --dry-run} it prints that change, needing no cluster.
 */
@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Describe or change Leader Pacer's dynamic configuration, read by every agent on its next run.",
            "Values set here override the agents' properties files; deleting one falls back to them.",
            "--preset NAME sets a named policy of the registry whole; with --dry-run it only prints the change."
        },
        footer = {
            "",
            "Examples:",
            "  pacer config --bootstrap-server HOST:9092 --describe",
            "  pacer config --bootstrap-server HOST:9092 --alter \\",
            "      --add-config leader.imbalance.election.algorithm=wait-for-sync",
            "  pacer config --bootstrap-server HOST:9092 --alter \\",
            "      --add-config 'preferred.leader.deprioritized.list=[1,2]'",
            "  pacer config --bootstrap-server HOST:9092 --alter \\",
            "      --delete-config preferred.leader.deprioritized.list",
            "  pacer config --preset recommended-paced --dry-run",
            "  pacer config --bootstrap-server HOST:9092 --preset recommended-paced",
            "",
            "Exit status: 0 done; 1 a key, value or preset was refused (nothing written); 2 bad usage; 3 the cluster could not"
                    + " be reached, read or written."
        })
public final class ConfigCommand implements Callable<Integer> {

    /** Exit status when a key or value is refused. */
    public static final int EXIT_REFUSED = 1;
    /** Exit status for bad usage (picocli's own convention). */
    public static final int EXIT_USAGE = 2;
    /** Exit status when the cluster could not be reached, read or written. */
    public static final int EXIT_CLUSTER = 3;
    /** What {@code --dry-run} prints for a cluster not named. */
    static final String PLACEHOLDER_SERVER = "HOST:9092";

    /** Gives access to the output streams picocli was configured with (tests capture them). */
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--bootstrap-server",
            paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "The Kafka cluster whose agents' configuration to show or change (required, except with"
                    + " --preset --dry-run).")
    private String bootstrapServer;

    @Option(
            names = "--command-config",
            paramLabel = "FILE",
            description = "Client properties (TLS, SASL, ...) used to reach the cluster.")
    private Path commandConfig;

    /** Exactly one of --alter / --describe, as with kafka-configs.sh, or --preset. */
    @ArgGroup(exclusive = true, multiplicity = "1")
    private Action action;

    @Option(
            names = "--add-config",
            paramLabel = "KEY=VALUE[,KEY=VALUE...]",
            description =
                    "With --alter: keys to set. A list value goes in brackets: preferred.leader.deprioritized.list=[1,2].")
    private List<String> addConfig = new ArrayList<>();

    @Option(
            names = "--delete-config",
            paramLabel = "KEY[,KEY...]",
            description = "With --alter: keys whose override to remove.")
    private List<String> deleteConfig = new ArrayList<>();

    @Option(
            names = "--config-topic",
            paramLabel = "TOPIC",
            defaultValue = TopicConfigSource.DEFAULT_TOPIC,
            description = "The agents' config topic (default: ${DEFAULT-VALUE}).")
    private String configTopic;

    @Option(
            names = "--timeout-ms",
            paramLabel = "MS",
            defaultValue = "30000",
            description = "How long to wait for the cluster (default: ${DEFAULT-VALUE}).")
    private long timeoutMs;

    @Option(
            names = "--dry-run",
            description = "With --preset: print the change, as a pacer config command, and write nothing; needs no"
                    + " cluster.")
    private boolean dryRun;

    /** The three actions. */
    static final class Action {
        @Option(
                names = "--alter",
                required = true,
                description = "Change the configuration (with --add-config and/or --delete-config).")
        boolean alter;

        @Option(
                names = "--describe",
                required = true,
                description = "Show every key, its value and whether it is set dynamically.")
        boolean describe;

        @Option(
                names = "--preset",
                required = true,
                paramLabel = "NAME",
                description = "Set a production preset's keys and remove the overrides of the other keys a preset"
                        + " decides (pacer simulate --list-policies describes them; recommended-paced is producers"
                        + " first).")
        String preset;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> set;
        Set<String> delete;
        PolicyEntry preset = null;
        try {
            checkOptions();
            if (action.preset != null) {
                try {
                    preset = PolicyRegistry.productionPreset(action.preset);
                } catch (IllegalArgumentException e) {
                    err.println("Error: " + e.getMessage());
                    err.println("Nothing was changed.");
                    return EXIT_REFUSED;
                }
                set = presetSettings(preset);
                delete = presetDeletions(preset);
            } else {
                set = ConfigAssignments.parseAdd(addConfig);
                delete = ConfigAssignments.parseDelete(deleteConfig);
            }
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

        return dryRun ? preview(out, err, preset, set, delete) : write(out, err, preset, set, delete);
    }

    /** The options that go together, and those that do not: picocli's usage error for each. */
    private void checkOptions() {
        if (dryRun && action.preset == null) {
            throw new ParameterException(spec.commandLine(), "--dry-run goes with --preset");
        }
        if (bootstrapServer == null && !dryRun) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Missing required option: '--bootstrap-server="
                            + spec.findOption("--bootstrap-server").paramLabel() + "'");
        }
        if (action.preset != null && (!addConfig.isEmpty() || !deleteConfig.isEmpty())) {
            throw new ParameterException(
                    spec.commandLine(), "--add-config and --delete-config go with --alter, not --preset");
        }
        if (action.describe && (!addConfig.isEmpty() || !deleteConfig.isEmpty())) {
            throw new ParameterException(
                    spec.commandLine(), "--add-config and --delete-config go with --alter, not --describe");
        }
        if (action.alter && addConfig.isEmpty() && deleteConfig.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--alter needs --add-config and/or --delete-config");
        }
        if (timeoutMs < 1) {
            throw new ParameterException(spec.commandLine(), "--timeout-ms must be >= 1, was " + timeoutMs);
        }
    }

    /** What a write would store, in canonical form, checked as the write checks it; nothing is written. */
    private int preview(
            PrintWriter out, PrintWriter err, PolicyEntry preset, Map<String, String> set, Set<String> delete) {
        try {
            // The write's own check, so that a dry run shows what would be stored (canonical form).
            PacerConfig validated = PacerConfig.defaults().withUpdates(set);
            Map<String, String> stored = new LinkedHashMap<>();
            set.keySet().forEach(k -> stored.put(k, validated.valueOf(ConfigKey.forName(k))));
            printDryRun(out, preset, stored, delete);
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("Error: " + e.getMessage());
            err.println("Nothing was changed.");
            return EXIT_REFUSED;
        }
    }

    /** Describes, or writes the change to the agents' config topic, through an Admin client of its own. */
    private int write(
            PrintWriter out, PrintWriter err, PolicyEntry preset, Map<String, String> set, Set<String> delete) {
        Map<String, Object> client;
        try {
            client = clientProperties();
        } catch (IOException e) {
            err.println("Error: " + e.getMessage());
            return EXIT_USAGE;
        }
        Duration timeout = Duration.ofMillis(timeoutMs);
        try (Admin admin = Admin.create(client);
                TopicConfigSource source =
                        new TopicConfigSource(new CompactedTopic(admin, client, configTopic, timeout))) {
            if (action.describe) {
                printDescription(out, source.describe());
            } else {
                ConfigChange change = source.update(set, delete);
                if (preset != null) {
                    out.println("Preset " + preset.name() + ":");
                }
                printChange(out, change, preset == null ? delete : Set.of());
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
        } catch (TimeoutException | ExecutionException | KafkaException e) {
            err.println("Error: "
                    + ClusterErrors.describe(
                            e, bootstrapServer, timeout, SecretRedactor.of(stringProperties(client)), client)
                    + (!action.describe && !ClusterErrors.isUnresolvable(e, bootstrapServer)
                            ? "; the change may not have been written"
                            : ""));
            return EXIT_CLUSTER;
        }
    }

    /** The keys a preset sets, by name, as {@code --add-config} would give them. */
    static Map<String, String> presetSettings(PolicyEntry preset) {
        return new LinkedHashMap<>(preset.settingsByKey(0));
    }

    /**
     * The keys whose override a preset removes: every other key a preset decides, so that after it the keys in force
     * are the preset's wherever the agents' properties files leave them at Kafka's defaults.
     */
    static Set<String> presetDeletions(PolicyEntry preset) {
        Set<String> out = new LinkedHashSet<>();
        for (ConfigKey k : PolicyRegistry.presetKeys()) {
            if (!preset.settings(0).containsKey(k)) {
                out.add(k.key());
            }
        }
        return out;
    }

    /**
     * What {@code --preset NAME --dry-run} prints: the keys, and the change as a command in kafka-configs.sh's syntax.
     * The command is {@code pacer config}'s, since the keys live in the agents' config topic, which kafka-configs.sh
     * cannot write.
     */
    private void printDryRun(PrintWriter out, PolicyEntry preset, Map<String, String> set, Set<String> delete) {
        String server = bootstrapServer != null ? bootstrapServer : PLACEHOLDER_SERVER;
        out.println("Preset " + preset.name() + ": " + preset.description() + ".");
        if (!set.isEmpty()) {
            out.println("Sets:");
            set.forEach((k, v) -> out.println("  " + k + "=" + v));
        }
        if (!delete.isEmpty()) {
            out.println("Removes the override of (agents fall back to their properties file or the default):");
            delete.forEach(k -> out.println("  " + k));
        }
        out.println("The command that does it (Leader Pacer's keys live in its config topic " + configTopic
                + ", which kafka-configs.sh cannot write):");
        String head = "  pacer config --bootstrap-server " + server
                + (configTopic.equals(TopicConfigSource.DEFAULT_TOPIC) ? "" : " --config-topic " + configTopic)
                + " --alter";
        List<String> lines = new ArrayList<>(List.of(head));
        if (!set.isEmpty()) {
            List<String> pairs = new ArrayList<>();
            set.forEach((k, v) -> pairs.add(k + "=" + v));
            lines.add("      --add-config " + String.join(",", pairs));
        }
        if (!delete.isEmpty()) {
            lines.add("      --delete-config " + String.join(",", delete));
        }
        out.println(String.join(" \\" + System.lineSeparator(), lines));
        out.println("Dry run: nothing was written.");
        out.flush();
    }

    private static Map<String, String> stringProperties(Map<String, Object> client) {
        Map<String, String> out = new HashMap<>();
        client.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    private Map<String, Object> clientProperties() throws IOException {
        Map<String, Object> props = new HashMap<>();
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TimeoutMs.of(timeoutMs));
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TimeoutMs.of(timeoutMs / 2));
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
        out.println(
                "Keys shown as default take each agent's properties-file value when it has one, else the value shown.");
        out.flush();
    }

    private void printChange(PrintWriter out, ConfigChange change, Set<String> asked) {
        change.set().forEach((k, v) -> out.println("Set " + k + "=" + v));
        change.deleted()
                .forEach(k ->
                        out.println("Deleted " + k + " (agents fall back to their properties file or the default)"));
        asked.stream()
                .filter(k -> !change.deleted().contains(k))
                .forEach(k -> out.println("Not overridden, nothing to delete: " + k));
        out.println("Completed updating Leader Pacer's dynamic configuration; agents apply it on their next run.");
        out.flush();
    }
}
