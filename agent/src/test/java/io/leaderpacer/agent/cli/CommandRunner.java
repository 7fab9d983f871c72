package io.leaderpacer.agent.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Test support: runs a picocli command with captured output, as the root {@code pacer} command would. */
public final class CommandRunner {

    /** Exit status and what the command printed. */
    public record Result(int exitCode, String out, String err) {}

    private CommandRunner() {}

    public static Result run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }
}
