package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A restarted broker's replicas start fetching one after another over {@code fetcherStartupMs}.
 *
 * <p>Worked by hand. Three brokers, 300 partitions at replication factor 3 with no traffic and no backlog: every
 * replica of broker 1 is caught up the moment it fetches, so its preferred partitions (100) rejoin their ISRs
 * {@code alterPartitionMs} (200 ms) after their fetch starts. All at once with no start-up; with a 10 s start-up,
 * spread evenly over it: the first within a tick or two of 0.2 s, the median near 5.2 s, the last near 10.2 s.
 */
class FetcherStartupTest {

    private static Reentries reentries(long startupMs) {
        Scenario s = new ScenarioLoader().parse("startup.yaml", String.join("\n",
                "name: startup",
                "seed: 5",
                "cluster: {brokers: 3}",
                "topics:",
                "  - {name: t, partitions: 300, replicationFactor: 3, produceMBps: 0, produceRequestsPerSecond: 0}",
                "model: {tickMs: 100, alterPartitionMs: 200, fetcherStartupMs: " + startupMs + "}",
                "timeline: {end: 3m, events: [{at: 1m, restart: {broker: 1, down: 10s}}]}",
                "policies: [baseline]", ""));
        return new ScenarioRunner(ProgressListener.NONE).run(s, s.seed()).baseline().classes().reentries();
    }

    @Test
    void noStartup_everyEmptyReplicaRejoinsTogether() {
        Reentries r = reentries(0);
        assertThat(r.firstSeconds()).isCloseTo(0.2, within(0.15));
        assertThat(r.lastSeconds()).isEqualTo(r.firstSeconds());
    }

    @Test
    void tenSecondStartup_spreadsTheRejoinsEvenlyOverIt() {
        Reentries r = reentries(10_000);
        assertThat(r.firstSeconds()).isLessThan(0.6);
        assertThat(r.quantileSeconds(0.5)).isCloseTo(5.2, within(1.0));
        assertThat(r.lastSeconds()).isCloseTo(10.2, within(0.4));
    }
}
