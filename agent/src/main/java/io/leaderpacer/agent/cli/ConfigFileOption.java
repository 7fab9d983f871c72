package io.leaderpacer.agent.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The {@code --config FILE} option of the commands that reach the cluster as the agent does, declared once (a
 * picocli mixin): the same name, label and words in every command's help.
 */
final class ConfigFileOption {

    @Option(
            names = "--config",
            paramLabel = "FILE",
            required = true,
            description = "The agent's properties file: bootstrap.servers and client security settings, and the"
                    + " policy keys and pacer.group.id where the command uses them.")
    private Path file;

    Path file() {
        return file;
    }
}
