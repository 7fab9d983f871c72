package io.leaderpacer.loadtest.probe;

import io.leaderpacer.loadtest.LoadTestDefaults;
import io.leaderpacer.loadtest.LoadTestDefaults.Setting;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.Map;

/**
 * {@code pacer throttle-probe}'s defaults: its own sizes where they differ from {@code pacer loadtest}'s on purpose (a
 * probe per case, smaller and throttled in bytes), and the load test's ({@link LoadTestDefaults}) for the broker it
 * caps and the heap it gives, so that both measure the same broker.
 */
public final class ProbeDefaults implements IDefaultValueProvider {

    /** The probe's own defaults, by option; {@code --rate} and {@code --backlog} mean bytes per case here. */
    static final Map<String, String> OWN = Map.of(
            "--partitions", "12",
            "--backlog", "400m",
            "--rate", "10m",
            "--out", "target/throttle-probe");

    /** The options whose default is the load test's, by option. */
    static final Map<String, Setting> SHARED = Map.of(
            Setting.CPU_CAP_CORES.option(), Setting.CPU_CAP_CORES,
            Setting.BROKER_HEAP.option(), Setting.BROKER_HEAP);

    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (!argSpec.isOption()) {
            return null;
        }
        String option = ((OptionSpec) argSpec).longestName();
        String own = OWN.get(option);
        if (own != null) {
            return own;
        }
        Setting shared = SHARED.get(option);
        return shared == null ? null : shared.text();
    }
}
