package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Targets are medians over rounds; a figure the policy cannot have moved is pooled over every policy's rounds. */
class CalibrationTargetsTest {

    private static MeasuredRound round(String policy, int n, double first, double p50) {
        return new MeasuredRound("run", policy, n, 40, 40, 400, 400, 400, 20, 15, 30, Double.NaN, first, p50,
                p50 * 2, p50 * 3, 100, 90);
    }

    private static Target target(List<Target> targets, String policy, Quantity q) {
        return targets.stream().filter(t -> t.policy().equals(policy) && t.quantity() == q).findFirst().orElseThrow();
    }

    @Test
    void firstReentryOfTwoPolicies_isTheMedianOfAllSixRounds_whileP50StaysPerPolicy() {
        List<Target> targets = Calibration.targets(List.of(
                round("immediate", 1, 1.0, 10), round("immediate", 2, 2.0, 11), round("immediate", 3, 6.0, 12),
                round("wait-for-sync", 1, 3.0, 5), round("wait-for-sync", 2, 4.0, 6), round("wait-for-sync", 3, 5.0, 7)));

        for (String policy : List.of("immediate", "wait-for-sync")) {
            Target first = target(targets, policy, Quantity.REENTRY_FIRST);
            assertThat(first.median()).as(policy).isEqualTo(3.5);
            assertThat(first.min()).isEqualTo(1.0);
            assertThat(first.max()).isEqualTo(6.0);
            assertThat(first.rounds()).isEqualTo(6);
        }
        assertThat(target(targets, "immediate", Quantity.REENTRY_P50).median()).isEqualTo(11);
        assertThat(target(targets, "wait-for-sync", Quantity.REENTRY_P50).median()).isEqualTo(6);
        assertThat(target(targets, "wait-for-sync", Quantity.REENTRY_P50).rounds()).isEqualTo(3);
    }

    @Test
    void gateReleaseMissingUnderImmediate_hasNoImmediateTarget() {
        List<Target> targets = Calibration.targets(List.of(round("immediate", 1, 1.0, 10),
                round("immediate", 2, 2.0, 11)));
        assertThat(targets).noneMatch(t -> t.quantity() == Quantity.GATE_RELEASE);
    }

    @Test
    void startFromAnEarlierCalibration_takesItsValues_clampedToTheBounds() {
        Map<ModelKey, Double> values = new EnumMap<>(ModelKey.class);
        values.put(ModelKey.DISK_WRITE_MBPS, 111.4);
        values.put(ModelKey.REQUEST_COST_KB, 5e5);
        List<FitParameter> start = FreeParameters.startingFrom(ModelParameters.defaults().with(values));
        FitParameter disk = start.stream().filter(p -> p.key() == ModelKey.DISK_WRITE_MBPS).findFirst().orElseThrow();
        FitParameter cost = start.stream().filter(p -> p.key() == ModelKey.REQUEST_COST_KB).findFirst().orElseThrow();
        assertThat(disk.start()).isEqualTo(111.4);
        assertThat(cost.start()).isEqualTo(cost.max());
        assertThat(start).extracting(FitParameter::key)
                .containsExactlyElementsOf(FreeParameters.standard().stream().map(FitParameter::key).toList());
    }
}
