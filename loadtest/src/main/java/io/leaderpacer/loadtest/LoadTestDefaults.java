package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.testbed.ShutdownMode;
import io.leaderpacer.report.text.ByteSize;
import io.leaderpacer.report.text.DurationText;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code pacer loadtest}'s defaults, each written once, as its option's text: picocli reads them through this
 * provider (the command's {@code defaultValueProvider}, so that {@code ${DEFAULT-VALUE}} in a help text shows them),
 * and {@link LoadTestSettingsBuilder} starts from the same texts, parsed as the command parses them.
 *
 * <p>Why one place: a setting was declared as the option's {@code defaultValue}, again as the builder's initial value
 * in another spelling ({@code "2g"} and {@code 2L << 30}), and mapped back from the setting to its option for error
 * messages; the copies could drift apart. Each {@link Setting} now holds the setting's name, its option and its
 * default, and a setting out of its range names its option directly ({@link SettingException#option()}).
 */
public final class LoadTestDefaults implements IDefaultValueProvider {

    /**
     * A checked load test setting: its name in {@link LoadTestSettings}, its option on {@code pacer loadtest}, and its
     * default as that option's text ({@code null} where the option has no single default value).
     */
    public enum Setting {
        BROKERS("brokers", "--brokers", "3"),
        RESTARTED_BROKER("restartedBroker", "--restart-broker", "1"),
        LOAD_PARTITIONS("loadPartitions", "--partitions", "60"),
        CATCH_UP_PARTITIONS("catchUpPartitions", "--catch-up-partitions", "240"),
        RECORDS_PER_SECOND("recordsPerSecond", "--rate", "100"),
        RECORD_BYTES("recordBytes", "--record-size", "1024"),
        BACKLOG_BYTES("backlogBytes", "--backlog", "2g"),
        BACKLOG_SIGMA("backlogSigma", "--backlog-skew", "1.0"),
        SHUTDOWN("shutdown", "--shutdown", "kill"),
        DOWN_FOR("downFor", "--down-for", "0s"),
        WARMUP("warmup", "--warmup", "30s"),
        WARMUP_LIMIT("warmupLimit", "--warmup-limit", "3m"),
        STEADY("steady", "--steady", "20s"),
        WINDOW("window", "--window", "90s"),
        ROUND_LIMIT("roundLimit", "--round-limit", "6m"),
        ROUNDS("rounds", "--rounds", "3"),
        /** A flag: its default is off. */
        ROLLING("rolling", "--rolling", "false"),
        /** No default value: without {@code --policy} the command runs {@link NamedPolicy#DEFAULTS}. */
        POLICIES("policies", "--policy", null),
        CHECK_INTERVAL_SECONDS("checkIntervalSeconds", "--check-interval", "5"),
        CPU_CAP_CORES("cpuCapCores", "--cpu-cap", "0.5"),
        CATCH_UP_TOPIC("catchUpTopic", "--catch-up-topic", LoadTestSettings.CATCH_UP_TOPIC),
        BROKER_HEAP("brokerHeap", "--broker-heap", "512m"),
        OUT("out", "--out", "target/loadtest");

        private final String settingName;
        private final String option;
        private final String text;

        Setting(String settingName, String option, String text) {
            this.settingName = settingName;
            this.option = option;
            this.text = text;
        }

        /** The setting's name, as {@link LoadTestSettings} and its error messages name it. */
        public String settingName() {
            return settingName;
        }

        /** The option that sets it, as the user types it. */
        public String option() {
            return option;
        }

        /** The default as the option's text. */
        public String text() {
            return Objects.requireNonNull(text, () -> option + " has no default value");
        }

        public int asInt() {
            return Integer.parseInt(text());
        }

        public long asLong() {
            return Long.parseLong(text());
        }

        public double asDouble() {
            return Double.parseDouble(text());
        }

        /** A size, read as the command reads it ({@link ByteSize}). */
        public long asBytes() {
            return ByteSize.parsePositive(text());
        }

        /** A duration, read as the command reads it ({@link DurationText}). */
        public Duration asDuration() {
            return Duration.ofMillis(DurationText.parseMs(text()));
        }

        public ShutdownMode asShutdownMode() {
            return ShutdownMode.valueOf(text().toUpperCase(Locale.ROOT));
        }

        public Path asPath() {
            return Path.of(text());
        }
    }

    private static final Map<String, Setting> BY_OPTION =
            Arrays.stream(Setting.values()).collect(Collectors.toUnmodifiableMap(Setting::option, Function.identity()));

    /** The setting an option sets, if it is one of {@code pacer loadtest}'s checked settings. */
    public static Optional<Setting> ofOption(String option) {
        return Optional.ofNullable(BY_OPTION.get(option));
    }

    /** Picocli's: the default text of a {@code pacer loadtest} option, {@code null} for an option without one. */
    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (!argSpec.isOption()) {
            return null;
        }
        Setting setting = BY_OPTION.get(((OptionSpec) argSpec).longestName());
        return setting == null ? null : setting.text;
    }
}
