package io.leaderpacer.simulator;

import io.leaderpacer.simulator.run.ProgressListener;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** Chooses how a long simulation shows its progress on standard error: a bar on a terminal, spaced lines elsewhere. */
final class Progress {

    private Progress() {}

    /** The listener for this process's standard error, or none when progress is turned off. */
    static ProgressListener onStandardError(PrintWriter err, boolean off) {
        if (off) {
            return ProgressListener.NONE;
        }
        return standardErrorIsTerminal()
                ? new ProgressBar(err)
                : new ProgressLines(err, () -> System.nanoTime() / 1_000_000L);
    }

    /**
     * Whether file descriptor 2 is a terminal. Java has no isatty for standard error: on Linux its link in
     * /proc names the device; elsewhere a console means the process runs interactively.
     */
    static boolean standardErrorIsTerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        try {
            return isTerminalDevice(Files.readSymbolicLink(fd).toString());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    /** Whether a device path is a terminal's: a pseudo-terminal or a tty. */
    static boolean isTerminalDevice(String target) {
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    }
}
