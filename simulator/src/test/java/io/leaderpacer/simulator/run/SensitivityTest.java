package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SensitivityTest {

    /** A small cluster: the rows must be right, the verdicts themselves do not matter here. */
    private static final String SMALL = String.join(
            "\n",
            "name: sens",
            "seed: 5",
            "cluster: {brokers: 3}",
            "topics: [{name: t, partitions: 12, produceMBps: 30, skew: {kind: lognormal, sigma: 1.0}}]",
            "model: {tickMs: 1000}",
            "timeline: {end: 20m, events: [{at: 2m, restart: {broker: 0, down: 3m}}]}",
            "policies: [kip-example]",
            "");

    @Test
    void everyPhysicalConstant_isVariedBothWays_andAFlipIsWhatADirectRerunShows() {
        Scenario s = new ScenarioLoader().parse("sens.yaml", SMALL);
        List<Sensitivity.Row> rows = Sensitivity.run(s, 5, new double[] {0.5, 2.0}, ProgressListener.NONE);
        assertThat(rows)
                .extracting(Sensitivity.Row::key)
                .doesNotContain(ModelKey.TICK_MS, ModelKey.BUCKET_SECONDS)
                .contains(ModelKey.FETCH_WAIT_SCALE, ModelKey.CATCH_UP_TARGET_UTILISATION);
        // requestCostKB is 0 by default: x0.5 and x2 leave it at 0, so it has no rows.
        assertThat(rows).extracting(Sensitivity.Row::key).doesNotContain(ModelKey.REQUEST_COST_KB);

        ScenarioRunner runner = new ScenarioRunner(ProgressListener.NONE);
        ScenarioResult base = runner.run(s, 5);
        for (Sensitivity.Row r : rows.subList(0, 6)) {
            ScenarioResult changed = runner.run(s.withModel(s.model().with(Map.of(r.key(), r.value()))), 5);
            boolean flipped = base.acceptance("kip-example").p99Ok()
                            != changed.acceptance("kip-example").p99Ok()
                    || base.acceptance(base.baseline()).p99Ok()
                            != changed.acceptance(changed.baseline()).p99Ok();
            assertThat(r.flips().stream().anyMatch(f -> f.contains("P99")))
                    .as(r.key().key())
                    .isEqualTo(flipped);
        }
    }
}
