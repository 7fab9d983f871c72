package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Where requests and bytes share one CPU ({@code requestCostKB} > 0), the requests a broker handles count in its
 * utilisation as they count against its catch-up grant: one capacity, one account.
 *
 * <p>Worked by hand, in the steady phase. Three brokers, replication factor 3, 30 MB/s and 300 produce requests/s in
 * all, disk 100 MB/s: each broker appends 30 MB/s (leader and follower copies) and leads a third of the requests,
 * 100/s. At 200 KB per request those take 100 x 200 KB = 20 MB/s of the same 100 MB/s: u = (30 + 20) / 100 = 0.50,
 * against 0.30 when requests and bytes are separate resources.
 */
class CpuSharedBrokerTest {

    private static PolicyOutcome steady(double requestCostKB) {
        Scenario s = new ScenarioLoader()
                .parse(
                        "cpu.yaml",
                        String.join(
                                "\n",
                                "name: cpu",
                                "seed: 5",
                                "cluster: {brokers: 3}",
                                "topics:",
                                "  - name: t",
                                "    partitions: 30",
                                "    replicationFactor: 3",
                                "    produceMBps: 30",
                                "    produceRequestsPerSecond: 300",
                                "model: {networkInMBps: 100000, diskWriteMBps: 100, tickMs: 1000, requestCostKB: "
                                        + requestCostKB + "}",
                                "timeline: {end: 3m, events: [{at: 2m, restart: {broker: 0, down: 10s}}]}",
                                "policies: [immediate]",
                                ""));
        return new ScenarioRunner(ProgressListener.NONE).run(s, s.seed()).baseline();
    }

    /** Broker 0's utilisation in the bucket that holds the 30th second (steady: the restart is at 2 minutes). */
    private static double utilisationAt30s(PolicyOutcome o) {
        TimeSeries ts = o.series();
        return ts.value("util_b0", ts.rowAt(30));
    }

    @Test
    void requestsAndBytesOnOneCpu_bothCountInTheUtilisation() {
        assertThat(utilisationAt30s(steady(200))).isCloseTo(0.50, within(0.005));
    }

    @Test
    void separateResources_onlyTheBytesCount() {
        assertThat(utilisationAt30s(steady(0))).isCloseTo(0.30, within(0.005));
    }
}
