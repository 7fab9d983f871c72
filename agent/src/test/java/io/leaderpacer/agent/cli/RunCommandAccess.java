package io.leaderpacer.agent.cli;

/** Test support: runs a {@link RunCommand} on the caller's thread and stops it from another, as SIGTERM would. */
public final class RunCommandAccess {

    private final RunCommand command = new RunCommand();
    private volatile CommandRunner.Result result;

    public void runWith(String... args) {
        result = CommandRunner.run(command, args);
    }

    public void stop() {
        command.stop();
    }

    public CommandRunner.Result result() {
        return result;
    }
}
