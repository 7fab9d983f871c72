package io.leaderpacer.simulator.scenario;

import io.leaderpacer.engine.policy.PolicyEntry;
import io.leaderpacer.engine.policy.PolicyRegistry;
import io.leaderpacer.report.policy.LoadTestPolicies;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registered policies as the simulator runs them: every policy of {@link LoadTestPolicies} (the engine's
 * {@link PolicyRegistry} plus the load test's sized ones, since scenarios and the calibration model the load test's
 * runs) can be named by a scenario without defining it. The registry owns the names and the engine settings; this
 * class adds what only a model has, the follower replication throttle of
 * {@value PolicyRegistry#REPLICATION_THROTTLE}, and sizes a policy scaled to the run's size
 * ({@value LoadTestPolicies#KIP_EXAMPLE_SCALED}) to the scenario's preferred partitions per broker.
 */
public final class StandardPolicies {

    /** The policy every result is compared against (the baseline): Kafka's behaviour today. */
    public static final String BASELINE = PolicyRegistry.IMMEDIATE;

    /** The follower replication throttle {@value PolicyRegistry#REPLICATION_THROTTLE} models on catch-up. */
    static final double REPLICATION_THROTTLE_BYTES_PER_SECOND = 400e6;

    private StandardPolicies() {}

    /**
     * The registered policy with this name as the simulator runs it, or {@code null}.
     *
     * @param preferredPerBroker the scenario's partitions per broker, which sizes a policy scaled to the run
     */
    public static PolicySpec named(String name, int preferredPerBroker) {
        return LoadTestPolicies.find(name).map(e -> spec(e, preferredPerBroker)).orElse(null);
    }

    /** {@link #named(String, int)} sized for this scenario. */
    public static PolicySpec named(String name, Scenario scenario) {
        return named(name, preferredPerBroker(scenario));
    }

    /** The scenario's partitions per broker, which sizes a policy scaled to the run. */
    public static int preferredPerBroker(Scenario scenario) {
        return preferredPerBroker(scenario.topics(), scenario.brokers());
    }

    /** Every partition has a preferred leader and the default placement spreads them evenly: partitions / brokers. */
    static int preferredPerBroker(List<TopicSpec> topics, int brokers) {
        long partitions = 0;
        for (TopicSpec t : topics) {
            partitions += t.layout().partitions();
        }
        return (int) Math.min(Integer.MAX_VALUE, partitions / Math.max(1, brokers));
    }

    private static PolicySpec spec(PolicyEntry e, int preferredPerBroker) {
        boolean throttle = e.name().equals(PolicyRegistry.REPLICATION_THROTTLE);
        String description = throttle
                ? e.description() + "; the model's throttle: " + Math.round(REPLICATION_THROTTLE_BYTES_PER_SECOND / 1e6)
                        + " MB/s"
                : e.description();
        return new PolicySpec(
                e.name(),
                description,
                e.settingsByKey(preferredPerBroker),
                throttle ? REPLICATION_THROTTLE_BYTES_PER_SECOND : 0);
    }

    public static List<String> names() {
        return LoadTestPolicies.names();
    }

    /**
     * The message of an "unknown policy" error: it lists the registered names, then the given custom ones (from a
     * file, so quoted and shortened as any value an error repeats), and names the replacement of a retired name.
     */
    public static String unknown(String name, Collection<String> customNames) {
        return LoadTestPolicies.unknown(name, customNames).getMessage();
    }

    /** Every registered policy's name and description, for {@code --list-policies}. */
    public static Map<String, String> descriptions() {
        Map<String, String> out = new LinkedHashMap<>();
        for (PolicyEntry e : LoadTestPolicies.all()) {
            out.put(e.name(), spec(e, 0).description());
        }
        return out;
    }

    /** The four the issue asks for in every scenario, the baseline first. */
    public static List<String> defaultSet() {
        return List.of(BASELINE, PolicyRegistry.KIP_EXAMPLE, "kip-example-literal", "throttle-only");
    }
}
