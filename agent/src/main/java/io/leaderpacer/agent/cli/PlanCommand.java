package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.core.RunTimings;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.agent.kafka.BrokerConfigReader;
import io.leaderpacer.agent.pacing.FetchSizeAdvice;
import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code pacer plan}: one dry run of the agent against a cluster, printed; changes nothing.
 *
 * <p>Why: before letting the agent move leaders, an operator wants to see what it would do now and why: which
 * brokers the gate holds back and the elections it would send. The plan reads the cluster and the dynamic
 * overrides exactly as a run does, skips the KIP-491 reorder and the elections, and starts from an empty gate
 * memory (as a freshly started agent would). Without {@code --config} it plans a small built-in example cluster,
 * so that the command can be tried with nothing to connect to.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = {
            "Show what the agent would do now, and why; changes nothing.",
            "Per broker: its preferred partitions, out-of-sync count and ratio, gate verdict and reason; then the"
                    + " elections a run would make now."
        },
        footer = {
            "",
            "Without --config, plans a built-in example cluster (no connection needed).",
            "",
            "Exit status: 0 planned; 2 bad usage or invalid properties file; 3 the cluster could not be read."
        })
public final class PlanCommand implements Callable<Integer> {

    public static final int EXIT_USAGE = ClusterAccess.EXIT_USAGE;
    public static final int EXIT_CLUSTER = ClusterAccess.EXIT_CLUSTER;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "The agent's properties file (bootstrap.servers, client security settings, policy keys).")
    private Path config;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (config == null) {
            RunRecord example = example();
            PlanReport.print(out, "the built-in example cluster (pass --config FILE to plan your cluster)", example);
            return 0;
        }
        ClusterAccess access;
        try {
            access = ClusterAccess.open(config, err);
        } catch (ClusterAccess.Exit e) {
            return e.status();
        }
        AgentProperties props = access.props();
        try (access;
                TopicConfigSource overrides = new TopicConfigSource(access.topic(TopicConfigSource.DEFAULT_TOPIC));
                PacerAgent agent = PacerAgent.builder(access.admin())
                        .properties(props)
                        .configSource(overrides)
                        .build()) {
            // One bounded contact first: an unreachable cluster is reported once, within the time-out, instead of
            // after a failed read of the overrides and another of the cluster.
            access.contact(err);
            RunRecord plan = agent.dryRun();
            if (!plan.succeeded()) {
                err.println("Error: cannot read the cluster at " + props.bootstrapServers() + ": "
                        + plan.failure().orElse(""));
                return EXIT_CLUSTER;
            }
            agent.configurationProblem()
                    .ifPresent(p -> err.println("Warning: " + p + "; planned with the file's values"));
            PlanReport.print(out, props.bootstrapServers(), plan);
            out.println();
            try {
                PacingText.print(out, plan.config().pacing(), agent.pacingPreview(), true);
                printFetchSizeAdvice(out, access, props);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                err.println("Error: interrupted");
                return EXIT_CLUSTER;
            }
            out.flush();
            return 0;
        } catch (ClusterAccess.Exit e) {
            return e.status();
        }
    }

    /**
     * The fetch-size advice for the brokers up now ({@link FetchSizeAdvice}); a broker that cannot be read is said so
     * in one line, since the plan itself has been printed.
     */
    private static void printFetchSizeAdvice(PrintWriter out, ClusterAccess access, AgentProperties props)
            throws InterruptedException {
        try {
            List<Integer> brokers = access
                    .admin()
                    .describeCluster()
                    .nodes()
                    .get(props.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                    .stream()
                    .map(n -> n.id())
                    .sorted()
                    .toList();
            List<String> advice = FetchSizeAdvice.advise(
                    FetchSizeAdvice.read(new BrokerConfigReader(access.admin(), props.requestTimeout()), brokers));
            if (!advice.isEmpty()) {
                out.println();
                advice.forEach(out::println);
            }
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            out.println();
            out.println("Broker fetch sizes not read: " + props.redactor().describe(e));
        }
    }

    /** The dry run over the built-in example cluster. */
    static RunRecord example() {
        return plan(ExampleCluster.snapshot(), ExampleCluster.policy());
    }

    /** The dry run of a fresh agent over a snapshot. */
    static RunRecord plan(ClusterSnapshot snapshot, PacerConfig policy) {
        ElectionDecision d = PreferredLeaderBalancer.decide(snapshot, policy, BalancerMemory.empty(), 0);
        return new RunRecord(
                0,
                0,
                0,
                true,
                policy,
                Optional.of(d),
                List.of(),
                RunRecord.leaderCounts(snapshot),
                snapshot.partitions().size(),
                RunTimings.NONE,
                Optional.empty(),
                d.nextRunDelayMs());
    }
}
