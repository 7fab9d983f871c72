package io.leaderpacer.cli;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;

/**
 * Bad usage as every {@code pacer} error reads: {@value #PREFIX} and the problem on one line, then the usage of the
 * command that was misused; exit status 2.
 *
 * <p>Why: an operator (or a script's log) should find every error by one word, whichever command or library
 * produced it; picocli's own messages otherwise come without a prefix.
 */
final class ErrorLine implements IParameterExceptionHandler {

    /** How every error line of every command starts. */
    static final String PREFIX = "Error: ";

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(cmd.getColorScheme().errorText(PREFIX + e.getMessage()));
        if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
            err.println();
            cmd.usage(err, cmd.getColorScheme());
        }
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }
}
