package io.leaderpacer.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * What an operator sees when a command fails: one line naming the command and the cause chain's
 * messages, exit status 1. The stack trace is logged at DEBUG only (--verbose, or a log file),
 * because on the console it hides the one sentence that matters.
 */
final class FailureHandler implements IExecutionExceptionHandler {

    /** The stack trace is logged at DEBUG under this name: shown with --verbose or in a log file only. */
    private static final Logger LOG = LoggerFactory.getLogger(PacerLogging.FAILURE_LOGGER);

    /** Exit status of a command that failed while running (bad usage is picocli's 2). */
    static final int EXIT_FAILED = 1;

    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
        String command = commandLine.getCommandSpec().qualifiedName();
        LOG.debug("{} failed", command, e);
        commandLine
                .getErr()
                .println(commandLine.getColorScheme().errorText(ErrorLine.PREFIX + command + ": " + describe(e)));
        commandLine.getErr().flush();
        return EXIT_FAILED;
    }

    /** The messages along the cause chain, without repeats; never a Java class name. */
    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        String previous = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (m == null || m.isBlank() || (previous != null && previous.contains(m))) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(": ");
            }
            sb.append(m);
            previous = m;
        }
        return sb.length() == 0 ? "unexpected error without a message (run with --verbose for details)" : sb.toString();
    }
}
