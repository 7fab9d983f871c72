package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fit is a search, not a lookup: from a wrong start it moves the parameter towards what the data says. */
class FitProcedureTest {

    @Test
    void catchUpCapacityStartedAtAThird_isFittedBackFromTheReentryTimeline() {
        Scenario calibrated = new ScenarioLoader().load(Path.of("..", "scenarios", "09-calibrated-loadtest.yaml"));
        Calibration c = Calibration.of(
                calibrated, LoadTestRuns.read(List.of(Path.of("..", "docs", "evidence", "run2-producer-per-leader"))));
        double shipped = calibrated.model().get(ModelKey.DISK_WRITE_MBPS);
        List<Quantity> timeline = List.of(Quantity.REENTRY_P50, Quantity.REENTRY_P90, Quantity.REENTRY_LAST);
        List<String> progress = new ArrayList<>();
        FitResult fit = c.fit(
                List.of(new FitParameter(ModelKey.DISK_WRITE_MBPS, 5, 5000, shipped / 3, "test")),
                timeline,
                14,
                progress::add);

        double fitted = fit.values().get(ModelKey.DISK_WRITE_MBPS);
        assertThat(fitted).isBetween(shipped / 1.5, shipped * 1.5);
        assertThat(progress).isNotEmpty();
        assertThat(fit.evaluations()).isLessThanOrEqualTo(14 + 1);
        // The objective at the fitted value is far below the one at the start.
        FitResult atStart = c.fit(
                List.of(new FitParameter(ModelKey.DISK_WRITE_MBPS, 5, 5000, shipped / 3, "test")),
                timeline,
                1,
                s -> {});
        assertThat(fit.objective()).isLessThan(atStart.objective() / 4);
    }
}
