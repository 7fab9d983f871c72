package io.leaderpacer.loadtest.probe;

import io.leaderpacer.loadtest.LoadTestDefaults;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeDefaultsTest {

    private static String defaultOf(CommandLine cli, String option) {
        return cli.getCommandSpec().findOption(option).defaultValueString();
    }

    @Test
    void theProbesOwnSizes_areItsOwn_andTheBrokerItCapsIsTheLoadTests() {
        CommandLine cli = new CommandLine(new ThrottleProbeCommand());

        assertThat(defaultOf(cli, "--partitions")).isEqualTo("12");
        assertThat(defaultOf(cli, "--backlog")).isEqualTo("400m");
        assertThat(defaultOf(cli, "--rate")).isEqualTo("10m");
        assertThat(defaultOf(cli, "--out")).isEqualTo("target/throttle-probe");
        assertThat(defaultOf(cli, "--cpu-cap"))
                .isEqualTo(LoadTestDefaults.Setting.CPU_CAP_CORES.text())
                .isEqualTo("0.5");
        assertThat(defaultOf(cli, "--broker-heap"))
                .isEqualTo(LoadTestDefaults.Setting.BROKER_HEAP.text())
                .isEqualTo("512m");
        assertThat(cli.getUsageMessage(CommandLine.Help.Ansi.OFF))
                .doesNotContain("${DEFAULT-VALUE}")
                .doesNotContain("default: null");
    }
}
