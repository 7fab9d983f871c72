package io.leaderpacer.agent.cli;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.policy.PolicyRegistry;
import org.junit.jupiter.api.Test;

import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pacer config} without a cluster: against clusters it cannot reach (the cause named, in the operator's terms),
 * and its presets, printed by {@code --dry-run} or refused before anything is written.
 */
class ConfigCommandTest {

    @Test
    void presetDryRun_withoutACluster_printsTheKeysAndTheCommand_withAPlaceholderServer() {
        CommandRunner.Result r = CommandRunner.run(new ConfigCommand(), "--preset", "recommended-paced", "--dry-run");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out().lines())
                .containsExactly(
                        "Preset recommended-paced: recommended with the catch-up paced (adaptive follower throttle), re-checked"
                                + " every 5 s with no hysteresis floor, leadership returned 10 partitions a run, 1 s apart.",
                        "Sets:",
                        "  leader.imbalance.election.algorithm=wait-for-sync",
                        "  leader.imbalance.election.wait.for.sync.threshold.percent=5",
                        "  leader.imbalance.election.wait.for.sync.max.wait.ms=1800000",
                        "  leader.imbalance.election.max.per.run=10",
                        "  leader.imbalance.election.throttle.interval.ms=1000",
                        "  leader.imbalance.election.wait.for.sync.recheck.interval.ms=5000",
                        "  leader.imbalance.election.wait.for.sync.hysteresis.min.ms=0",
                        "  leader.imbalance.catch.up.pacing=adaptive",
                        "Removes the override of (agents fall back to their properties file or the default):",
                        "  leader.imbalance.election.wait.for.sync.denominator",
                        "  leader.imbalance.election.wait.for.sync.max.wait.clock",
                        "  leader.imbalance.catch.up.pacing.rate.bytes",
                        "  leader.imbalance.catch.up.pacing.min.rate.bytes",
                        "  leader.imbalance.catch.up.pacing.max.rate.bytes",
                        "  leader.imbalance.catch.up.pacing.target.p99.ratio",
                        "  leader.imbalance.catch.up.pacing.interval.ms",
                        "  leader.imbalance.catch.up.pacing.max.wait.ms",
                        "  leader.imbalance.catch.up.pacing.unthrottled.lag.bytes",
                        "  leader.imbalance.catch.up.pacing.lag.time.max.ms",
                        "  leader.imbalance.catch.up.pacing.deadline.ms",
                        "  leader.imbalance.catch.up.pacing.preferred.first",
                        "The command that does it (Leader Pacer's keys live in its config topic _leader-pacer-config, which"
                                + " kafka-configs.sh cannot write):",
                        "  pacer config --bootstrap-server HOST:9092 --alter \\",
                        "      --add-config leader.imbalance.election.algorithm=wait-for-sync,"
                                + "leader.imbalance.election.wait.for.sync.threshold.percent=5,"
                                + "leader.imbalance.election.wait.for.sync.max.wait.ms=1800000,"
                                + "leader.imbalance.election.max.per.run=10,"
                                + "leader.imbalance.election.throttle.interval.ms=1000,"
                                + "leader.imbalance.election.wait.for.sync.recheck.interval.ms=5000,"
                                + "leader.imbalance.election.wait.for.sync.hysteresis.min.ms=0,"
                                + "leader.imbalance.catch.up.pacing=adaptive \\",
                        "      --delete-config leader.imbalance.election.wait.for.sync.denominator,"
                                + "leader.imbalance.election.wait.for.sync.max.wait.clock,"
                                + "leader.imbalance.catch.up.pacing.rate.bytes,"
                                + "leader.imbalance.catch.up.pacing.min.rate.bytes,"
                                + "leader.imbalance.catch.up.pacing.max.rate.bytes,"
                                + "leader.imbalance.catch.up.pacing.target.p99.ratio,"
                                + "leader.imbalance.catch.up.pacing.interval.ms,"
                                + "leader.imbalance.catch.up.pacing.max.wait.ms,"
                                + "leader.imbalance.catch.up.pacing.unthrottled.lag.bytes,"
                                + "leader.imbalance.catch.up.pacing.lag.time.max.ms,"
                                + "leader.imbalance.catch.up.pacing.deadline.ms,"
                                + "leader.imbalance.catch.up.pacing.preferred.first",
                        "Dry run: nothing was written.");
    }

    @Test
    void presetDryRun_namesTheGivenClusterAndConfigTopic() {
        CommandRunner.Result r = CommandRunner.run(
                new ConfigCommand(),
                "--bootstrap-server",
                "b1:9092",
                "--config-topic",
                "pacer-config",
                "--preset",
                "kip-example",
                "--dry-run");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("  pacer config --bootstrap-server b1:9092 --config-topic pacer-config --alter \\")
                .contains("config topic pacer-config,")
                .contains("leader.imbalance.election.max.per.run=200,")
                .doesNotContain("HOST:9092");
    }

    @Test
    void presetImmediate_setsNothing_andRemovesTheOverrideOfEveryKeyAPresetDecides() {
        CommandRunner.Result r = CommandRunner.run(new ConfigCommand(), "--preset", "immediate", "--dry-run");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .doesNotContain("Sets:")
                .doesNotContain("--add-config")
                .contains("      --delete-config "
                        + PolicyRegistry.presetKeys().stream()
                                .map(ConfigKey::key)
                                .collect(Collectors.joining(",")));
        assertThat(r.out())
                .doesNotContain(ConfigKey.CHECK_INTERVAL_SECONDS.key())
                .doesNotContain(ConfigKey.DEPRIORITIZED_LIST.key());
    }

    @Test
    void presetSizedForALoadTest_isRefused_sayingWhy_andWhichPresetToUse() {
        CommandRunner.Result r = CommandRunner.run(new ConfigCommand(), "--preset", "kip-example-scaled", "--dry-run");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_REFUSED);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines())
                .containsExactly(
                        "Error: 'kip-example-scaled' is sized for a load test of minutes,"
                                + " not for a production cluster: its per-run cap depends on the partition count of the broker that"
                                + " recovers, and a cluster-wide key has one value for every broker; use the production preset"
                                + " kip-example instead",
                        "Nothing was changed.");
    }

    @Test
    void presetTheSimulatorAloneModels_isRefused_beforeAnyCluster() {
        CommandRunner.Result r = CommandRunner.run(
                new ConfigCommand(),
                "--bootstrap-server",
                "nosuchhost.invalid:9092",
                "--preset",
                "replication-throttle");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_REFUSED);
        assertThat(r.err())
                .startsWith("Error: 'replication-throttle' is modelled by the simulator alone")
                .doesNotContain("nosuchhost")
                .contains("Nothing was changed.");
    }

    @Test
    void unknownPreset_listsTheProductionPresets() {
        CommandRunner.Result r = CommandRunner.run(new ConfigCommand(), "--preset", "fastest", "--dry-run");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_REFUSED);
        assertThat(r.err())
                .startsWith("Error: unknown preset 'fastest'; the production presets are immediate,"
                        + " kip-example, recommended, recommended-paced,")
                .doesNotContain("kip-example-scaled");
    }

    @Test
    void presetWithoutDryRun_needsTheCluster() {
        CommandRunner.Result r = CommandRunner.run(new ConfigCommand(), "--preset", "recommended-paced");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_USAGE);
        assertThat(r.err()).contains("Missing required option: '--bootstrap-server=HOST:PORT[,HOST:PORT...]'");
    }

    @Test
    void preset_writesThroughTheAlterPath_toTheNamedCluster() {
        CommandRunner.Result r = CommandRunner.run(
                new ConfigCommand(), "--bootstrap-server", "nosuchhost.invalid:9092", "--preset", "recommended-paced");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_CLUSTER);
        assertThat(r.err().lines())
                .containsExactly("Error: bootstrap.servers=nosuchhost.invalid:9092: the host name"
                        + " nosuchhost.invalid does not resolve (check the name and the host's DNS)");
    }

    @Test
    void dryRun_goesWithPresetOnly_andPresetTakesNoAddConfig() {
        CommandRunner.Result alter = CommandRunner.run(
                new ConfigCommand(),
                "--bootstrap-server",
                "b1:9092",
                "--alter",
                "--add-config",
                "leader.imbalance.election.max.per.run=5",
                "--dry-run");
        CommandRunner.Result both = CommandRunner.run(
                new ConfigCommand(),
                "--preset",
                "recommended-paced",
                "--dry-run",
                "--add-config",
                "leader.imbalance.election.max.per.run=5");

        assertThat(alter.exitCode()).isEqualTo(ConfigCommand.EXIT_USAGE);
        assertThat(alter.err()).contains("--dry-run goes with --preset");
        assertThat(both.exitCode()).isEqualTo(ConfigCommand.EXIT_USAGE);
        assertThat(both.err()).contains("--add-config and --delete-config go with --alter, not --preset");
    }

    @Test
    void unresolvableHost_namesTheHost_notARefusal() {
        CommandRunner.Result r =
                CommandRunner.run(new ConfigCommand(), "--bootstrap-server", "nosuchhost.invalid:9092", "--describe");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_CLUSTER);
        assertThat(r.err().lines())
                .containsExactly("Error: bootstrap.servers=nosuchhost.invalid:9092: the host name"
                        + " nosuchhost.invalid does not resolve (check the name and the host's DNS)");
    }

    @Test
    void alter_misspelledKey_suggestsTheClosest_writesNothing() {
        CommandRunner.Result r = CommandRunner.run(
                new ConfigCommand(),
                "--bootstrap-server",
                "nosuchhost.invalid:9092",
                "--alter",
                "--add-config",
                "leader.imbalance.election.algoritm=wait-for-sync");

        assertThat(r.exitCode()).isEqualTo(ConfigCommand.EXIT_REFUSED);
        assertThat(r.err())
                .startsWith("Error: unknown key 'leader.imbalance.election.algoritm';"
                        + " did you mean 'leader.imbalance.election.algorithm'?; known keys: ")
                .contains("Nothing was changed.");
    }
}
