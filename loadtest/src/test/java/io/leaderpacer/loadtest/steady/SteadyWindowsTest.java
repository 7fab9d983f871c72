package io.leaderpacer.loadtest.steady;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SteadyWindowsTest {

    @Test
    void lastThreeWindowsWithinTwofold_areSteady_whateverCameBefore() {
        assertThat(SteadyWindows.steady(List.of(3000.0, 900.0, 60.0, 110.0, 70.0)))
                .isTrue();
    }

    @Test
    void oneWindowMoreThanTwiceAnother_amongTheLastThree_isNotSteady() {
        assertThat(SteadyWindows.steady(List.of(60.0, 130.0, 70.0))).isFalse();
        assertThat(SteadyWindows.steady(List.of(60.0, 120.0, 70.0))).isTrue();
    }

    @Test
    void fewerThanThreeWindows_orAWindowWithoutSends_isNotSteady() {
        assertThat(SteadyWindows.steady(List.of(60.0, 60.0))).isFalse();
        assertThat(SteadyWindows.steady(List.of(60.0, Double.NaN, 60.0))).isFalse();
    }

    @Test
    void warmUpLimitBelowItsMinimum_isRejected_namingBoth() {
        assertThatThrownBy(() -> new WarmUpSettings(Duration.ofSeconds(30), Duration.ofSeconds(20)))
                .hasMessage("the warm-up's limit (20 s) must be at least its minimum (30 s)");
    }
}
