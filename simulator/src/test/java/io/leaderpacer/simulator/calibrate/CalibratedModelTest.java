package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped calibration (scenarios/09-calibrated-loadtest.yaml, fitted by {@code pacer simulate --calibrate}) against
 * the real run it was fitted on (docs/evidence/run2-producer-per-leader, measured on Kafka 4.3.1): every figure the
 * issue names, for both policies, within 25 % of the measured median over the rounds.
 *
 * <p>Two of them the fitted model misses by more (docs/SIMULATOR.md, "Calibration"): they are listed here by name,
 * checked to be still outside the band (so the list cannot go stale when the model improves) and bounded, not
 * hidden under a wider tolerance.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CalibratedModelTest {

    private static final Path RUN = Path.of("..", "docs", "evidence", "run2-producer-per-leader");
    private static final Path SCENARIO = Path.of("..", "scenarios", "09-calibrated-loadtest.yaml");

    /** The quantities the issue asks the calibration to reproduce. */
    private static final Set<Quantity> CHECKED = Set.of(Quantity.REENTRY_FIRST, Quantity.REENTRY_P50,
            Quantity.REENTRY_P90, Quantity.REENTRY_LAST, Quantity.GATE_RELEASE, Quantity.RECOVERY,
            Quantity.P99_RATIO_PROTECTED, Quantity.P99_RATIO_OTHER);

    /** Misses of the fitted model, with the reason in docs/SIMULATOR.md. */
    private static final Set<String> KNOWN_MISSES = Set.of(
            "immediate/" + Quantity.REENTRY_P50,
            "wait-for-sync/" + Quantity.REENTRY_LAST);

    private Calibration calibration;
    private Map<String, Map<Quantity, Double>> modelled;

    @BeforeAll
    void run() {
        Scenario calibrated = new ScenarioLoader().load(SCENARIO);
        calibration = Calibration.of(calibrated, LoadTestRuns.read(List.of(RUN)));
        modelled = calibration.modelled(Map.of());
    }

    @Test
    void calibratedModel_reproducesTheMeasuredRun_within25Percent() {
        List<String> checked = new ArrayList<>();
        for (Target t : calibration.targets()) {
            String key = t.policy() + "/" + t.quantity();
            if (!CHECKED.contains(t.quantity()) || KNOWN_MISSES.contains(key)) {
                continue;
            }
            double m = modelled.get(t.policy()).get(t.quantity());
            assertThat(m / t.median() - 1).as("%s: modelled %s, measured %s", key, m, t.median())
                    .isBetween(-FitReport.TOLERANCE, FitReport.TOLERANCE);
            checked.add(key);
        }
        // 8 quantities x 2 policies, less gate release under immediate (no gate) and the 2 known misses.
        assertThat(checked).hasSize(13);
    }

    @Test
    void knownMisses_areStillOutsideTheBand_andWithinFiftyPercent() {
        for (Target t : calibration.targets()) {
            String key = t.policy() + "/" + t.quantity();
            if (!KNOWN_MISSES.contains(key)) {
                continue;
            }
            double err = modelled.get(t.policy()).get(t.quantity()) / t.median() - 1;
            assertThat(Math.abs(err)).as(key).isGreaterThan(FitReport.TOLERANCE).isLessThan(0.5);
        }
    }

    @Test
    void measuredSetup_takesDowntimeAndUnfencingFromTheRounds() {
        Scenario setup = calibration.setup();
        // rounds.csv: restarted - stopped = 47.3, 23.8, 24.6, 21.3, 22.8, 21.3 s (median 23.7);
        // unfenced - restarted = 19.9, 16.4, 38.5, 19.6, 18.2, 19.2 s (median 19.4).
        assertThat(setup.restarts().get(0).downMs()).isEqualTo(23_700);
        assertThat(setup.model().get(ModelKey.UNFENCE_DELAY_MS)).isEqualTo(19_400);
        assertThat(calibration.seeds()).isEqualTo(3);
    }
}
