package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.AgentAssembly;
import io.leaderpacer.agent.OpenedResources;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.config.AgentConfigException;
import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.dynamic.UnsafeTopicException;
import io.leaderpacer.agent.http.StatusServer;
import io.leaderpacer.agent.kafka.AutoRebalanceEnabledException;
import io.leaderpacer.agent.kafka.UnsupportedClusterException;
import io.leaderpacer.agent.metrics.PacerMetrics;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;

/**
 * {@code pacer run}: the agent, until stopped (Ctrl-C or SIGTERM).
 *
 * <p>Why a command of its own: this is where the pieces meet for production use: the properties file (re-read
 * each run), the dynamic overrides in the config topic, the KIP-491 reorder step with its write-ahead topic, the
 * metrics and the HTTP endpoint. Everything it opens is closed on the way out, in reverse order, also on SIGTERM.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run the agent: Kafka's periodic preferred-leader election, gated, throttled and fair.",
            "The cluster must run with auto.leader.rebalance.enable=false. Logs go to standard out unless"
                    + " --log-file names a file."
        },
        footer = {
            "",
            "Policy keys in the file may be edited while the agent runs; the next run uses them. Dynamic"
                    + " overrides set with 'pacer config' apply on top of the file's values.",
            "",
            "Several instances may run against one cluster (same pacer.group.id): exactly one acts, the others"
                    + " stand by and take over when it stops or is cut off.",
            "",
            "Exit status: 0 stopped (SIGTERM or Ctrl-C included); 1 refused to run (the brokers rebalance leaders themselves,"
                    + " not authorized, or an unsafe state topic); 2 bad usage or invalid properties file; 3 the HTTP"
                    + " endpoint or Kafka client could not be set up."
        })
public final class RunCommand implements Callable<Integer> {

    public static final int EXIT_REFUSED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_SETUP = 3;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--config",
            required = true,
            paramLabel = "FILE",
            description =
                    "The agent's properties file (bootstrap.servers, client security settings, policy keys, pacer.*).")
    private Path config;

    @Option(
            names = "--allow-auto-rebalance",
            description =
                    "Run even with auto.leader.rebalance.enable=true on brokers (the controller will undo the gate).")
    private boolean allowAutoRebalance;

    /** Everything opened, closed in reverse order by {@link #closeAll()}. */
    private final OpenedResources opened = new OpenedResources();
    /** Set by the first stop (signal, shutdown hook or {@link #stop()}): nothing more is started after it. */
    private volatile boolean stopRequested;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        AgentPropertiesFile file = new AgentPropertiesFile(config);
        AgentProperties props;
        try {
            props = file.load();
        } catch (AgentConfigException e) {
            err.println("Error: " + e.getMessage());
            return EXIT_USAGE;
        }
        SecretRedactor redactor = props.redactor();
        Thread hook = new Thread(this::closeAll, "leader-pacer-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        StopSignals signals = StopSignals.install(this::closeAll);
        try {
            PacerAgent agent;
            PacerMetrics metrics;
            try {
                metrics = open(PacerMetrics.withJmxAndPrometheus());
                PacerMetrics listener = metrics;
                agent = open(AgentAssembly.open(
                                props,
                                () -> file.load().policy(),
                                b -> b.allowAutoRebalance(allowAutoRebalance)
                                        .listener(listener)
                                        .pacingListener(listener::onPacing)))
                        .agent();
                PacerAgent running = agent;
                metrics.activeInstanceGauge(() -> running.state() == AgentState.ACTIVE);
                metrics.pacingOwnsGauge(running::pacingOwnsThrottles);
            } catch (KafkaException | IllegalArgumentException e) {
                return ClusterErrors.printClientFailure(e, config, props, err) ? EXIT_SETUP : EXIT_USAGE;
            }
            if (props.httpEnabled()) {
                try {
                    open(StatusServer.start(
                            props.httpHost(), props.httpPort(), agent, metrics, props.redactedClientProperties()));
                } catch (IOException e) {
                    err.println("Error: cannot serve HTTP on " + props.httpHost() + ":" + props.httpPort() + " ("
                            + e.getMessage() + "); set pacer.http.port to a free port or pacer.http.enabled=false");
                    return EXIT_SETUP;
                }
            }
            if (stopRequested) {
                return 0; // stopped by a signal while setting up: everything opened is closed below
            }
            return runUntilStopped(agent, err, redactor);
        } finally {
            closeAll();
            signals.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Already shutting down: the hook is running or has run.
            }
        }
    }

    /** Starts the agent and waits until it stops: 0 when stopped, {@link #EXIT_REFUSED} when it refused to start. */
    private static int runUntilStopped(PacerAgent agent, PrintWriter err, SecretRedactor redactor) {
        agent.start();
        try {
            agent.termination().get();
            return 0;
        } catch (ExecutionException e) {
            err.println("Error: not started: " + whyNotStarted(e.getCause(), redactor));
            return EXIT_REFUSED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** The agent's refusal in words, secrets scrubbed. */
    private static String whyNotStarted(Throwable cause, SecretRedactor redactor) {
        if (cause instanceof AutoRebalanceEnabledException refusal) {
            return "auto.leader.rebalance.enable=true on broker(s) " + refusal.brokers()
                    + " (how to turn it off is logged above; --allow-auto-rebalance overrides).";
        }
        if (cause instanceof UnsafeTopicException unsafe) {
            return unsafe.getMessage();
        }
        if (cause instanceof UnsupportedClusterException unsupported) {
            return redactor.scrub(unsupported.getMessage());
        }
        return redactor.describe(cause);
    }

    /** Stops a running command as SIGTERM would: closes everything, and {@link #call()} returns 0. */
    void stop() {
        closeAll();
    }

    private <T extends AutoCloseable> T open(T resource) {
        return opened.add(resource);
    }

    /** Closes everything opened, newest first; safe to call twice and from the shutdown hook. */
    private void closeAll() {
        stopRequested = true;
        opened.close();
    }
}
