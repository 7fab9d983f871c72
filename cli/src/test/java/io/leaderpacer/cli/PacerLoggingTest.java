package io.leaderpacer.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/** Which lines each kind of command lets through: short commands only errors unless verbose. */
class PacerLoggingTest {

    private final Logger agent = LoggerFactory.getLogger("io.leaderpacer.agent.PolicyResolver");
    private final Logger kafka = LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient");

    @AfterEach
    void shortMode() {
        PacerLogging.configure(PacerLogging.Mode.SHORT, false, null);
    }

    @Test
    void shortCommand_showsErrorsOnly() {
        PacerLogging.configure(PacerLogging.Mode.SHORT, false, null);

        assertThat(agent.isErrorEnabled()).isTrue();
        assertThat(agent.isWarnEnabled()).isFalse();
        assertThat(agent.isInfoEnabled()).isFalse();
        assertThat(kafka.isErrorEnabled()).isFalse();
    }

    @Test
    void shortCommand_verbose_showsTheAgentsDetailAndKafkasWarnings() {
        PacerLogging.configure(PacerLogging.Mode.SHORT, true, null);

        assertThat(agent.isDebugEnabled()).isTrue();
        assertThat(kafka.isWarnEnabled()).isTrue();
        assertThat(kafka.isInfoEnabled()).isFalse();
    }

    @Test
    void run_showsTheAgentsInfoLines_andOnlyKafkasErrors() {
        PacerLogging.configure(PacerLogging.Mode.SERVICE, false, null);

        assertThat(agent.isInfoEnabled()).isTrue();
        assertThat(agent.isDebugEnabled()).isFalse();
        assertThat(kafka.isWarnEnabled()).isFalse();
        assertThat(kafka.isErrorEnabled()).isTrue();
    }

    @Test
    void commandLine_runAndDemoHaveTheirOwnMode_everythingElseIsShort() {
        assertThat(PacerCli.logMode(PacerCli.commandLine().parseArgs("run", "--config", "x")))
                .isEqualTo(PacerLogging.Mode.SERVICE);
        assertThat(PacerCli.logMode(PacerCli.commandLine().parseArgs("run", "--help")))
                .isEqualTo(PacerLogging.Mode.SHORT);
        assertThat(PacerCli.logMode(PacerCli.commandLine().parseArgs("demo"))).isEqualTo(PacerLogging.Mode.DEMO);
        assertThat(PacerCli.logMode(PacerCli.commandLine().parseArgs("loadtest")))
                .isEqualTo(PacerLogging.Mode.DEMO);
        assertThat(PacerCli.logMode(PacerCli.commandLine().parseArgs("plan", "--verbose")))
                .isEqualTo(PacerLogging.Mode.SHORT);
    }
}
