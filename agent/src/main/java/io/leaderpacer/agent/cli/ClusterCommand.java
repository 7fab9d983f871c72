package io.leaderpacer.agent.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * A command that reads the cluster from the agent's properties file ({@code --config FILE}) and does one piece of
 * work there: {@code pacer throttles}, {@code restore}, {@code restart-check} and {@code await-recovery}.
 *
 * <p>Why a base class: each of them checks its own options, then reaches the cluster through {@link ClusterAccess}
 * with the same option, the same streams and the same exit statuses; written once here, the commands differ only in
 * their work.
 */
abstract class ClusterCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigFileOption config;

    @Override
    public final Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<String> badUsage = badUsage();
        if (badUsage.isPresent()) {
            err.println("Error: " + badUsage.get());
            return ClusterAccess.EXIT_USAGE;
        }
        return ClusterAccess.call(config.file(), err, access -> work(access, out, err));
    }

    /** What is wrong with the command's own options beyond what picocli checks; empty when nothing. */
    Optional<String> badUsage() {
        return Optional.empty();
    }

    /** The command's work once a broker has answered; its exit status. */
    abstract int work(ClusterAccess access, PrintWriter out, PrintWriter err) throws InterruptedException;
}
