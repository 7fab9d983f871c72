package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The restarted broker's CPU quota ({@code restartedBrokerCores}) against the cores the capacities were calibrated at
 * ({@code calibratedCores}): its CPU-bound capacities (appends and reads, requests) scale by their ratio once it is
 * back, the other brokers' stay, and its network does not change.
 *
 * <p>Worked by hand, as in {@link CpuSharedBrokerTest}: each broker appends 30 MB/s and handles 100 requests/s at
 * 200 KB each, 50 MB/s of work on a 100 MB/s capacity, u = 0.50. Broker 0 is restarted at 2 minutes and down 10 s;
 * at 7 minutes it has long caught up and leads its third again (Kafka's check every 300 s). At twice the calibrated cores its capacity is
 * 200 MB/s: u = 0.25; at 0.8 times, 80 MB/s: u = 0.625. Before its restart it is as calibrated (the series records only restarted brokers).
 *
 * <p>In cores: its steady work, 50 MB/s where 100 MB/s is 0.5 core, is 0.25 core whatever the quota (u 0.25 of 1 core,
 * 0.625 of 0.4). Catching up adds work, and the broker can use no more than its quota: its CPU in catch-up lies above
 * 0.25 core and at most the quota.
 */
class RestartedBrokerCoresTest {

    private static TimeSeries run(String cores) {
        return outcome(cores).series();
    }

    private static PolicyOutcome outcome(String cores) {
        Scenario s = new ScenarioLoader()
                .parse(
                        "cores.yaml",
                        String.join(
                                "\n",
                                "name: cores",
                                "seed: 5",
                                "cluster: {brokers: 3}",
                                "topics:",
                                "  - name: t",
                                "    partitions: 30",
                                "    replicationFactor: 3",
                                "    produceMBps: 30",
                                "    produceRequestsPerSecond: 300",
                                "model: {networkInMBps: 100000, diskWriteMBps: 100, tickMs: 1000, requestCostKB: 200,"
                                        + " unfenceDelayMs: 1000, coldCacheReadCost: 0" + cores + "}",
                                "timeline: {end: 8m, events: [{at: 2m, restart: {broker: 0, down: 10s}}]}",
                                "policies: [immediate]",
                                ""));
        return new ScenarioRunner(ProgressListener.NONE).run(s, s.seed()).baseline();
    }

    private static double utilisation(TimeSeries ts, int broker, double atSeconds) {
        return ts.value("util_b" + broker, ts.rowAt(atSeconds));
    }

    @Test
    void noQuotaGiven_restartedBrokerAsCalibrated() {
        TimeSeries ts = run("");
        assertThat(utilisation(ts, 0, 420)).isCloseTo(0.50, within(0.005));
    }

    @Test
    void twiceTheCalibratedCores_halfAsBusyOnceBack() {
        TimeSeries ts = run(", calibratedCores: 0.5, restartedBrokerCores: 1.0");
        assertThat(utilisation(ts, 0, 30)).as("before its restart").isCloseTo(0.50, within(0.005));
        assertThat(utilisation(ts, 0, 420)).isCloseTo(0.25, within(0.005));
    }

    @Test
    void fewerCoresThanCalibrated_busier() {
        TimeSeries ts = run(", calibratedCores: 0.5, restartedBrokerCores: 0.4");
        assertThat(utilisation(ts, 0, 420)).isCloseTo(0.625, within(0.005));
    }

    @Test
    void cpuInCatchUp_aboveTheSteadyWork_atMostTheQuota() {
        assertThat(outcome(", calibratedCores: 0.5, restartedBrokerCores: 1.0")
                        .classes()
                        .catchUpBusyCores())
                .isGreaterThan(0.25)
                .isLessThanOrEqualTo(1.0);
        assertThat(outcome(", calibratedCores: 0.5, restartedBrokerCores: 0.4")
                        .classes()
                        .catchUpBusyCores())
                .isGreaterThan(0.25)
                .isLessThanOrEqualTo(0.4);
    }

    @Test
    void cpuInCatchUp_unknownWhereTheModelNamesNoCores() {
        assertThat(outcome("").classes().catchUpBusyCores()).isNaN();
    }
}
