package io.leaderpacer.agent.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code pacer config} against clusters it cannot reach: the cause named, in the operator's terms. */
class ConfigCommandTest {

    @Test
    void unresolvableHost_namesTheHost_notARefusal() {
        CommandRunner.Result r = CommandRunner.run(new ConfigCommand(), "--bootstrap-server", "nosuchhost.invalid:9092",
                "--describe");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_CLUSTER);
        assertThat(r.err().lines()).containsExactly("Error: bootstrap.servers=nosuchhost.invalid:9092: the host name"
                + " nosuchhost.invalid does not resolve (check the name and the host's DNS)");
    }

    @Test
    void alter_misspelledKey_suggestsTheClosest_writesNothing() {
        CommandRunner.Result r = CommandRunner.run(new ConfigCommand(), "--bootstrap-server", "nosuchhost.invalid:9092",
                "--alter", "--add-config", "leader.imbalance.election.algoritm=wait-for-sync");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_REFUSED);
        assertThat(r.err()).startsWith("Error: unknown key 'leader.imbalance.election.algoritm';"
                + " did you mean 'leader.imbalance.election.algorithm'?; known keys: ").contains("Nothing was changed.");
    }
}
