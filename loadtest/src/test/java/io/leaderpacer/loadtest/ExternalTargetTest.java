package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.testbed.ExternalTarget;
import io.leaderpacer.loadtest.testbed.ShutdownMode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExternalTargetTest {

    @Test
    void restartCommand_runsWithActionBrokerAndMode_andAFailureNamesTheCommandAndItsOutput() throws Exception {
        ExternalTarget t = new ExternalTarget(
                Map.of("bootstrap.servers", "127.0.0.1:1"),
                List.of(0, 1, 2),
                "test {action} = start || { echo no {action} of {broker} as {mode}; exit 4; }");

        t.startBroker(1);
        assertThatThrownBy(() -> t.stopBroker(1, ShutdownMode.KILL))
                .hasMessageContaining("exited with status 4")
                .hasMessageContaining("no stop of 1 as kill");
        assertThat(t.pid(1)).isEmpty();
    }
}
