package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.LoadTestDefaults.Setting;
import io.leaderpacer.loadtest.steady.WarmUpSettings;
import io.leaderpacer.loadtest.testbed.ShutdownMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds {@link LoadTestSettings} from {@code pacer loadtest}'s defaults ({@link LoadTestDefaults}, read as the
 * command reads them): a caller sets what differs. The policies have no default (they depend on the run's size); every
 * value is checked when {@link #build()} makes the groups.
 */
public final class LoadTestSettingsBuilder {

    private int brokers = Setting.BROKERS.asInt();
    private int restartedBroker = Setting.RESTARTED_BROKER.asInt();
    private String brokerHeap = Setting.BROKER_HEAP.text();
    private boolean saturate = true;
    private double cpuCapCores = Setting.CPU_CAP_CORES.asDouble();
    private Map<String, String> serverSettings = Map.of();
    private int loadPartitions = Setting.LOAD_PARTITIONS.asInt();
    private int catchUpPartitions = Setting.CATCH_UP_PARTITIONS.asInt();
    private String catchUpTopic = Setting.CATCH_UP_TOPIC.text();
    private int recordsPerSecond = Setting.RECORDS_PER_SECOND.asInt();
    private int recordBytes = Setting.RECORD_BYTES.asInt();
    private long backlogBytes = Setting.BACKLOG_BYTES.asBytes();
    private double backlogSigma = Setting.BACKLOG_SIGMA.asDouble();
    private long seed = 1;
    private ShutdownMode shutdown = Setting.SHUTDOWN.asShutdownMode();
    private Duration downFor = Setting.DOWN_FOR.asDuration();
    private WarmUpSettings warmup = new WarmUpSettings(Setting.WARMUP.asDuration(), Setting.WARMUP_LIMIT.asDuration());
    private Duration steady = Setting.STEADY.asDuration();
    private Duration window = Setting.WINDOW.asDuration();
    private boolean kipWindow;
    private Duration roundLimit = Setting.ROUND_LIMIT.asDuration();
    private List<NamedPolicy> policies = List.of();
    private int rounds = Setting.ROUNDS.asInt();
    private boolean rolling;
    private long checkIntervalSeconds = Setting.CHECK_INTERVAL_SECONDS.asLong();
    private Path out = Setting.OUT.asPath();

    LoadTestSettingsBuilder() {}

    public LoadTestSettingsBuilder brokers(int value) {
        brokers = value;
        return this;
    }

    public LoadTestSettingsBuilder restartedBroker(int value) {
        restartedBroker = value;
        return this;
    }

    /**
     * Settings added to every broker's {@code server.properties} of the test's own cluster (default: none), in the
     * operator's order: {@link LoadTestSettings.Cluster} copies them once, keeping it, for the header and the files.
     */
    public LoadTestSettingsBuilder serverSettings(Map<String, String> value) {
        serverSettings = Objects.requireNonNull(value, "serverSettings");
        return this;
    }

    public LoadTestSettingsBuilder brokerHeap(String value) {
        brokerHeap = value;
        return this;
    }

    /** Whether to cap the restarted broker, and at how many cores. */
    public LoadTestSettingsBuilder saturation(boolean on, double cores) {
        saturate = on;
        cpuCapCores = cores;
        return this;
    }

    public LoadTestSettingsBuilder partitions(int load, int catchUp) {
        loadPartitions = load;
        catchUpPartitions = catchUp;
        return this;
    }

    public LoadTestSettingsBuilder catchUpTopic(String value) {
        catchUpTopic = value;
        return this;
    }

    public LoadTestSettingsBuilder load(int recordsPerSecondValue, int recordBytesValue) {
        recordsPerSecond = recordsPerSecondValue;
        recordBytes = recordBytesValue;
        return this;
    }

    /** The backlog's size and log-normal spread, the seed that draws it. */
    public LoadTestSettingsBuilder backlog(long bytes, double sigma, long seedValue) {
        backlogBytes = bytes;
        backlogSigma = sigma;
        seed = seedValue;
        return this;
    }

    /** The least time from the broker's stop to its start (default: none, start once the backlog is written). */
    public LoadTestSettingsBuilder downFor(Duration value) {
        downFor = value;
        return this;
    }

    public LoadTestSettingsBuilder shutdown(ShutdownMode value) {
        shutdown = value;
        return this;
    }

    public LoadTestSettingsBuilder warmup(WarmUpSettings value) {
        warmup = value;
        return this;
    }

    public LoadTestSettingsBuilder steady(Duration value) {
        steady = value;
        return this;
    }

    public LoadTestSettingsBuilder window(Duration value) {
        window = value;
        return this;
    }

    /** Whether each round also measures KIP-1358's ten minutes from unfencing. */
    public LoadTestSettingsBuilder kipWindow(boolean value) {
        kipWindow = value;
        return this;
    }

    public LoadTestSettingsBuilder roundLimit(Duration value) {
        roundLimit = value;
        return this;
    }

    public LoadTestSettingsBuilder policies(List<NamedPolicy> value) {
        policies = value;
        return this;
    }

    public LoadTestSettingsBuilder rounds(int value) {
        rounds = value;
        return this;
    }

    /** Whether each round is a rolling restart of every broker in turn. */
    public LoadTestSettingsBuilder rolling(boolean value) {
        rolling = value;
        return this;
    }

    public LoadTestSettingsBuilder checkIntervalSeconds(long value) {
        checkIntervalSeconds = value;
        return this;
    }

    public LoadTestSettingsBuilder out(Path value) {
        out = value;
        return this;
    }

    /** The settings; a value out of its range is a {@link SettingException} naming the setting. */
    public LoadTestSettings build() {
        return new LoadTestSettings(
                new LoadTestSettings.Cluster(
                        brokers, restartedBroker, brokerHeap, saturate, cpuCapCores, serverSettings),
                new LoadTestSettings.Topics(loadPartitions, catchUpPartitions, catchUpTopic),
                new LoadTestSettings.Load(recordsPerSecond, recordBytes),
                new LoadTestSettings.Backlog(backlogBytes, backlogSigma, seed, shutdown, downFor),
                new LoadTestSettings.Phases(warmup, steady, window, roundLimit, kipWindow),
                new LoadTestSettings.Comparison(policies, rounds, checkIntervalSeconds, rolling),
                out);
    }
}
