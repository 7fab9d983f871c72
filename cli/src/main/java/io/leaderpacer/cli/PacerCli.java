package io.leaderpacer.cli;

import io.leaderpacer.agent.cli.AwaitRecoveryCommand;
import io.leaderpacer.agent.cli.ConfigCommand;
import io.leaderpacer.agent.cli.PlanCommand;
import io.leaderpacer.agent.cli.RestartCheckCommand;
import io.leaderpacer.agent.cli.RestoreCommand;
import io.leaderpacer.agent.cli.RunCommand;
import io.leaderpacer.agent.cli.StatusCommand;
import io.leaderpacer.agent.cli.ThrottlesCommand;
import io.leaderpacer.cli.demo.DemoCommand;
import io.leaderpacer.loadtest.LoadTestCommand;
import io.leaderpacer.loadtest.probe.ThrottleProbeCommand;
import io.leaderpacer.simulator.SimulateCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The {@code pacer} command: one entry point for everything Leader Pacer does, so that an
 * operator learns one tool and one help text.
 *
 * <p>The subcommands live with the code they drive (the agent's {@code run}, {@code plan} and
 * {@code config}, the simulator's {@code simulate}); this module only assembles them, adds the
 * {@code demo}, and sets the conventions every subcommand shares: exit status 2 with a usage
 * message for bad arguments, 1 with a one-line error for a failure, no stack traces on the
 * console unless {@code --verbose}, and the logging each kind of command calls for
 * ({@link PacerLogging}).
 */
@Command(
        name = "pacer",
        mixinStandardHelpOptions = true,
        versionProvider = PacerVersion.class,
        synopsisSubcommandLabel = "COMMAND",
        description = {"Leader Pacer: gradual, gated preferred-leader election for Apache Kafka.", ""},
        subcommands = {
            RunCommand.class,
            PlanCommand.class,
            StatusCommand.class,
            ConfigCommand.class,
            ThrottlesCommand.class,
            RestoreCommand.class,
            AwaitRecoveryCommand.class,
            RestartCheckCommand.class,
            SimulateCommand.class,
            LoadTestCommand.class,
            DemoCommand.class,
            ThrottleProbeCommand.class,
            CommandLine.HelpCommand.class
        },
        footer = {
            "",
            "Start with:  pacer demo      (a real Kafka cluster of separate processes, about 8 minutes)",
            "Evidence:    pacer loadtest  (the proposal's load test on a real cluster, about 27 minutes)",
            "Details:     pacer COMMAND --help"
        })
public final class PacerCli implements Runnable {

    /** Gives access to this command's own usage for the "no command given" error. */
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--verbose",
            scope = ScopeType.INHERIT,
            description = "Also print the log: Leader Pacer's detail and Kafka's warnings.")
    private boolean verbose;

    @Option(
            names = "--log-file",
            paramLabel = "FILE",
            scope = ScopeType.INHERIT,
            description = "Log to this file, appended and rolled over daily and at 100 MB (pacer run: instead of"
                    + " standard out).")
    private Path logFile;

    /** Names every registered command (picocli's {@code help} aside), so that the list cannot miss a new one. */
    @Override
    public void run() {
        List<String> names = spec.subcommands().entrySet().stream()
                .filter(e -> !(e.getValue().getCommand() instanceof CommandLine.HelpCommand))
                .map(Map.Entry::getKey)
                .toList();
        throw new ParameterException(
                spec.commandLine(),
                "Missing a command: " + String.join(", ", names.subList(0, names.size() - 1)) + " or "
                        + names.get(names.size() - 1));
    }

    /** The configured command line, as {@link #main} runs it (tests use it with their own writers). */
    public static CommandLine commandLine() {
        PacerCli root = new PacerCli();
        CommandLine cmd = new CommandLine(root);
        cmd.setExecutionStrategy(parsed -> {
            PacerLogging.configure(logMode(parsed), root.verbose, root.logFile);
            return new CommandLine.RunLast().execute(parsed);
        });
        cmd.setExecutionExceptionHandler(new FailureHandler());
        cmd.setParameterExceptionHandler(new ErrorLine());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        return cmd;
    }

    /** The logging a command line calls for: the agent's for {@code run}, the demo's, or a short command's. */
    static PacerLogging.Mode logMode(ParseResult parsed) {
        List<CommandLine> commands = parsed.asCommandLineList();
        CommandLine last = commands.get(commands.size() - 1);
        ParseResult own = last.getParseResult();
        if (own != null && (own.isUsageHelpRequested() || own.isVersionHelpRequested())) {
            return PacerLogging.Mode.SHORT;
        }
        return switch (last.getCommandName()) {
            case "run" -> PacerLogging.Mode.SERVICE;
            case "demo", "loadtest" -> PacerLogging.Mode.DEMO;
            default -> PacerLogging.Mode.SHORT;
        };
    }

    public static void main(String[] args) {
        int status = commandLine().execute(args);
        System.exit(status);
    }
}
