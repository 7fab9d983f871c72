package io.leaderpacer.simulator.calibrate;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.ModelParameters;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Targets are medians over rounds; a figure the policy cannot have moved is pooled over every policy's rounds. */
class CalibrationTargetsTest {

    private static MeasuredRound round(String policy, int n, double first, double p50) {
        return new MeasuredRound(
                "run",
                policy,
                n,
                new MeasuredRound.Latency(40, 40, 400, 400, 400, MeasuredRound.Roles.NONE),
                new MeasuredRound.Timeline(20, 15, 30, Double.NaN, 90),
                new MeasuredRound.Reentry(100, first, p50, p50 * 2, p50 * 3),
                MeasuredRound.Cpu.capped(0.5));
    }

    private static Target target(List<Target> targets, String policy, Quantity q) {
        return targets.stream()
                .filter(t -> t.policy().equals(policy) && t.quantity() == q)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void firstReentryOfTwoPolicies_isTheMedianOfAllSixRounds_whileP50StaysPerPolicy() {
        List<Target> targets = QuotaSetup.targets(List.of(
                round("immediate", 1, 1.0, 10),
                round("immediate", 2, 2.0, 11),
                round("immediate", 3, 6.0, 12),
                round("kip-example-scaled", 1, 3.0, 5),
                round("kip-example-scaled", 2, 4.0, 6),
                round("kip-example-scaled", 3, 5.0, 7)));

        for (String policy : List.of("immediate", "kip-example-scaled")) {
            Target first = target(targets, policy, Quantity.REENTRY_FIRST);
            assertThat(first.median()).as(policy).isEqualTo(3.5);
            assertThat(first.min()).isEqualTo(1.0);
            assertThat(first.max()).isEqualTo(6.0);
            assertThat(first.rounds()).isEqualTo(6);
        }
        assertThat(target(targets, "immediate", Quantity.REENTRY_P50).median()).isEqualTo(11);
        assertThat(target(targets, "kip-example-scaled", Quantity.REENTRY_P50).median())
                .isEqualTo(6);
        assertThat(target(targets, "kip-example-scaled", Quantity.REENTRY_P50).rounds())
                .isEqualTo(3);
    }

    private static MeasuredRound latencies(String policy, int n, double steadyMs, double windowOtherMs) {
        return new MeasuredRound(
                "run",
                policy,
                n,
                new MeasuredRound.Latency(
                        steadyMs, steadyMs, windowOtherMs, windowOtherMs, windowOtherMs, MeasuredRound.Roles.NONE),
                new MeasuredRound.Timeline(20, 15, 30, Double.NaN, 90),
                new MeasuredRound.Reentry(100, 1, 10, 20, 30),
                MeasuredRound.Cpu.capped(0.5));
    }

    /**
     * Steady P99s 100/200/300 ms under immediate and 10/20/30 ms under kip-example-scaled: pooled, their median is 65 ms.
     * Immediate's window P99s 1,000/2,000/9,000 ms give 2,000 / 65 = 30.8x (the median of per-round ratios would be
     * 10x); kip-example-scaled's 500/600/700 ms give 600 / 65 = 9.2x (per round: 30x).
     */
    @Test
    void p99Ratio_isThePolicysMedianWindowP99_overTheSteadyP99PooledOverEveryRound() {
        List<Target> targets = QuotaSetup.targets(List.of(
                latencies("immediate", 1, 100, 1000), latencies("immediate", 2, 200, 2000),
                latencies("immediate", 3, 300, 9000), latencies("kip-example-scaled", 1, 10, 500),
                latencies("kip-example-scaled", 2, 20, 600), latencies("kip-example-scaled", 3, 30, 700)));

        Target immediate = target(targets, "immediate", Quantity.P99_RATIO_OTHER);
        assertThat(immediate.median()).isCloseTo(2000 / 65.0, within(1e-9));
        assertThat(immediate.min()).isCloseTo(1000 / 65.0, within(1e-9));
        assertThat(immediate.max()).isCloseTo(9000 / 65.0, within(1e-9));
        assertThat(immediate.rounds()).isEqualTo(3);
        assertThat(target(targets, "kip-example-scaled", Quantity.P99_RATIO_PROTECTED)
                        .median())
                .isCloseTo(600 / 65.0, within(1e-9));
    }

    @Test
    void gateReleaseMissingUnderImmediate_hasNoImmediateTarget() {
        List<Target> targets =
                QuotaSetup.targets(List.of(round("immediate", 1, 1.0, 10), round("immediate", 2, 2.0, 11)));
        assertThat(targets).noneMatch(t -> t.quantity() == Quantity.GATE_RELEASE);
    }

    @Test
    void startFromAnEarlierCalibration_takesItsValues_clampedToTheBounds() {
        Map<ModelKey, Double> values = new EnumMap<>(ModelKey.class);
        values.put(ModelKey.DISK_WRITE_MBPS, 111.4);
        values.put(ModelKey.REQUEST_COST_KB, 5e5);
        List<FitParameter> start =
                FreeParameters.startingFrom(ModelParameters.defaults().with(values), false);
        FitParameter disk = start.stream()
                .filter(p -> p.key() == ModelKey.DISK_WRITE_MBPS)
                .findFirst()
                .orElseThrow();
        FitParameter cost = start.stream()
                .filter(p -> p.key() == ModelKey.REQUEST_COST_KB)
                .findFirst()
                .orElseThrow();
        assertThat(disk.start()).isEqualTo(111.4);
        assertThat(cost.start()).isEqualTo(cost.max());
        assertThat(start)
                .extracting(FitParameter::key)
                .containsExactlyElementsOf(FreeParameters.standard().stream()
                        .map(FitParameter::key)
                        .toList());
    }

    @Test
    void startFromACalibrationWithoutTheBaseCost_startsItWhereAFreshSearchWould() {
        List<FitParameter> start = FreeParameters.startingFrom(ModelParameters.defaults(), true);
        FitParameter base = start.stream()
                .filter(p -> p.key() == ModelKey.CATCH_UP_BASE_CORES)
                .findFirst()
                .orElseThrow();
        assertThat(ModelParameters.defaults().get(ModelKey.CATCH_UP_BASE_CORES)).isZero();
        assertThat(base.start()).isEqualTo(0.1).isGreaterThan(base.min());
    }
}
