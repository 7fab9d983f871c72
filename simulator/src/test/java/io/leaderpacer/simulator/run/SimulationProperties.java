package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.PolicyText;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import io.leaderpacer.simulator.scenario.StandardPolicies;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random small clusters, events and policies (catch-up pacing included): every run keeps its invariants (checked
 * inside the run, which would throw) and is reproducible from its seed.
 */
class SimulationProperties {

    @Property(tries = 25)
    void randomRecoveries_keepInvariants_andReplayExactly(
            @ForAll @IntRange(min = 3, max = 7) int brokers,
            @ForAll @IntRange(min = 10, max = 400) int partitions,
            @ForAll @IntRange(min = 1, max = 3) int replication,
            @ForAll @IntRange(min = 1, max = 8) int downMinutes,
            @ForAll boolean crash,
            @ForAll boolean replaced,
            @ForAll boolean failover,
            @ForAll boolean stall,
            @ForAll("policies") String policy,
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        String yaml = String.join(
                "\n",
                "name: random",
                "cluster: {brokers: " + brokers + "}",
                "topics:",
                "  - {name: t, partitions: " + partitions + ", replicationFactor: " + Math.min(replication, brokers)
                        + ", produceMBps: 200, skew: {kind: zipf, exponent: 1.0}, retention: 10m}",
                "model: {leaderServiceMs: 2}",
                "timeline:",
                "  end: 40m",
                "  events:",
                "    - {at: 2m, restart: {broker: 1, down: " + downMinutes + "m, shutdown: "
                        + (crash ? "crash" : "controlled") + ", disk: " + (replaced ? "replaced" : "kept")
                        + ", stuckPartitions: 1}}",
                failover
                        ? "    - {at: 12m, controllerFailover: }"
                        : "    - {at: 12m, config: {leader.imbalance.check.interval.seconds: \"120\"}}",
                stall
                        ? String.format(
                                Locale.ROOT,
                                "    - {at: 14m, followerStall: {broker: %d, fraction: 0.3, duration: 45s}}",
                                brokers - 1)
                        : "    - {at: 14m, restart: {broker: 2, down: 1m}}",
                "");
        Scenario s = new ScenarioLoader().parse("random.yaml", yaml);
        PolicySpec p = PolicyText.resolve(policy, Map.of(), StandardPolicies.preferredPerBroker(s));
        PolicyOutcome a = new Simulation(s, p, seed, ProgressListener.NONE).run();
        PolicyOutcome b = new Simulation(s, p, seed, ProgressListener.NONE).run();
        assertThat(a.end().invariantChecks()).isGreaterThan(0);
        assertThat(b.series().column("p99_ms")).containsExactly(a.series().column("p99_ms"));
        assertThat(b.kip().recoveryMs()).isEqualTo(a.kip().recoveryMs());
        assertThat(b.controller().elections()).isEqualTo(a.controller().elections());
    }

    @Provide
    Arbitrary<String> policies() {
        List<String> names = new ArrayList<>(StandardPolicies.names());
        names.add(
                "immediate:leader.imbalance.catch.up.pacing=static,leader.imbalance.catch.up.pacing.rate.bytes=10485760");
        names.add(
                "kip-example:leader.imbalance.catch.up.pacing=adaptive,leader.imbalance.catch.up.pacing.interval.ms=500");
        return Arbitraries.of(names);
    }
}
