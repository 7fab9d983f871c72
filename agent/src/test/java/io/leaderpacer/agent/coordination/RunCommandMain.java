package io.leaderpacer.agent.coordination;

import io.leaderpacer.agent.cli.RunCommand;
import picocli.CommandLine;

/** Test support: {@code pacer run} as the main class of a child JVM, so a test can kill or pause a real process. */
public final class RunCommandMain {

    private RunCommandMain() {}

    public static void main(String[] args) {
        System.exit(new CommandLine(new RunCommand()).execute(args));
    }
}
