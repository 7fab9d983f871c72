package io.leaderpacer.simulator;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {

    @Test
    void notATerminal_printsWholeLinesAtMostOnePerPeriod_andNoCarriageReturn() {
        StringWriter text = new StringWriter();
        AtomicLong clock = new AtomicLong();
        ProgressLines lines = new ProgressLines(new PrintWriter(text), clock::get);

        // 100 updates over 25 s: one line at 10 s and one at 20 s, none in between.
        for (int i = 0; i < 100; i++) {
            clock.set(i * 250L);
            lines.progress("scenario 01, policy immediate", i / 100.0);
        }

        assertThat(text.toString())
                .doesNotContain("\r")
                .isEqualTo("progress  40% scenario 01, policy immediate\n"
                        + "progress  80% scenario 01, policy immediate\n");
    }

    @Test
    void terminalDevices_areToldFromPipesAndFiles() {
        assertThat(Progress.isTerminalDevice("/dev/pts/3")).isTrue();
        assertThat(Progress.isTerminalDevice("/dev/tty1")).isTrue();
        assertThat(Progress.isTerminalDevice("pipe:[12345]")).isFalse();
        assertThat(Progress.isTerminalDevice("/tmp/simulate.log")).isFalse();
        assertThat(Progress.isTerminalDevice("/dev/null")).isFalse();
    }

    @Test
    void turnedOff_showsNothing() {
        StringWriter text = new StringWriter();
        Progress.onStandardError(new PrintWriter(text), true).progress("x", 0.5);

        assertThat(text.toString()).isEmpty();
    }
}
