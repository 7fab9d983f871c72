package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A cold page cache on a restarted broker costs reads, not appends.
 *
 * <p>Worked by hand. Three brokers, replication factor 3, 30 MB/s of produce, disk 100 MB/s the binding resource.
 * Once broker 0 has caught up and leads its third again, each broker's disk takes 30 MB/s of appends (u = 0.30).
 * With consumers reading broker 0's led partitions (10 MB/s), a cold cache adds
 * coldCacheReadCost x 10 MB/s x exp(-(t - unfenced) / 600 s) of disk reads on broker 0 alone: 0.1 x e^(-1/2) = 0.061
 * of utilisation 300 s after unfencing. With no consumers there is nothing to read, and the produce latency is the
 * same with or without a cold cache.
 */
class ColdCacheTest {

    private static ScenarioResult run(double consumerRequestsPerSecond, double coldCacheReadCost) {
        Scenario s = new ScenarioLoader()
                .parse(
                        "cold.yaml",
                        String.join(
                                "\n",
                                "name: cold",
                                "seed: 11",
                                "cluster: {brokers: 3}",
                                "topics:",
                                "  - name: t",
                                "    partitions: 30",
                                "    replicationFactor: 3",
                                "    produceMBps: 30",
                                "    produceRequestsPerSecond: 300",
                                "    consumerRequestsPerSecond: " + consumerRequestsPerSecond,
                                "model: {networkInMBps: 100000, diskWriteMBps: 100, tickMs: 1000, coldCacheReadCost: "
                                        + coldCacheReadCost + ", coldCacheDecaySeconds: 600}",
                                "timeline: {end: 20m, events: [{at: 1m, restart: {broker: 0, down: 10s}}]}",
                                "policies: [immediate]",
                                ""));
        return new ScenarioRunner(ProgressListener.NONE).run(s, s.seed());
    }

    /** The bucket starting about {@code seconds} after broker 0 was unfenced. */
    private static int rowAfterUnfencing(PolicyOutcome o, double seconds) {
        TimeSeries ts = o.series();
        double at = o.kip().firstUnfenceMs() / 1000.0 + seconds;
        for (int i = 0; i < ts.rows(); i++) {
            if (ShippedScenarios.time(ts, i) >= at) {
                return i;
            }
        }
        throw new AssertionError("no bucket " + seconds + " s after unfencing");
    }

    @Test
    void coldCacheWithConsumers_loadsTheRestartedBrokersDiskWithReads() {
        PolicyOutcome cold = run(600, 1.0).baseline();
        PolicyOutcome warm = run(600, 0.0).baseline();
        int row = rowAfterUnfencing(cold, 300);
        double t = ShippedScenarios.time(cold.series(), row) + 5 - cold.kip().firstUnfenceMs() / 1000.0;
        double expected = 0.1 * StrictMath.exp(-t / 600);
        assertThat(cold.series().value("util_b0", row) - warm.series().value("util_b0", row))
                .isCloseTo(expected, within(0.01));
    }

    @Test
    void coldCacheWithoutReaders_leavesAppendsAlone() {
        PolicyOutcome cold = run(0, 1.0).baseline();
        PolicyOutcome warm = run(0, 0.0).baseline();
        assertThat(cold.kip().windowP99Ms()).isEqualTo(warm.kip().windowP99Ms());
        assertThat(cold.series().column("util_b0"))
                .containsExactly(warm.series().column("util_b0"));
    }
}
