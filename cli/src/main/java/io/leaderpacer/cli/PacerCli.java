package io.leaderpacer.cli;

import io.leaderpacer.agent.cli.ConfigCommand;
import io.leaderpacer.agent.cli.PlanCommand;
import io.leaderpacer.agent.cli.RunCommand;
import io.leaderpacer.cli.demo.DemoCommand;
import io.leaderpacer.loadtest.LoadTestCommand;
import io.leaderpacer.simulator.SimulateCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code pacer} command: one entry point for everything Leader Pacer does, so that an
 * operator learns one tool and one help text.
 *
 * <p>The subcommands live with the code they drive (the agent's {@code run}, {@code plan} and
 * {@code config}, the simulator's {@code simulate}); this module only assembles them, adds the
 * {@code demo}, and sets the conventions every subcommand shares: exit status 2 with a usage
 * message for bad arguments, 1 with a one-line error for a failure, no stack traces on the
 * console (they go to the log file).
 */
@Command(name = "pacer",
        mixinStandardHelpOptions = true,
        versionProvider = PacerVersion.class,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Leader Pacer: gradual, gated preferred-leader election for Apache Kafka.",
            ""},
        subcommands = {
            RunCommand.class,
            PlanCommand.class,
            ConfigCommand.class,
            SimulateCommand.class,
            LoadTestCommand.class,
            DemoCommand.class,
            CommandLine.HelpCommand.class},
        footer = {"",
            "Start with:  pacer demo      (a real Kafka cluster of separate processes, about 5 minutes)",
            "Evidence:    pacer loadtest  (the proposal's load test on a real cluster, about 15 minutes)",
            "Details:     pacer COMMAND --help"})
public final class PacerCli implements Runnable {

    /** Gives access to this command's own usage for the "no command given" error. */
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing a command: run, plan, config, simulate, loadtest or demo");
    }

    /** The configured command line, as {@link #main} runs it (tests use it with their own writers). */
    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new PacerCli());
        cmd.setExecutionExceptionHandler(new FailureHandler());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        return cmd;
    }

    public static void main(String[] args) {
        int status = commandLine().execute(args);
        System.exit(status);
    }
}
