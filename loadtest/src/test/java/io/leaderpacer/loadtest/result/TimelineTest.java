package io.leaderpacer.loadtest.result;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTest {

    @Test
    void tenReentries_giveFirstMedianP90AndLast_afterUnfencing() {
        Timeline t =
                Timeline.of(10, List.of(1100L, 1200L, 1300L, 1400L, 1500L, 1600L, 1700L, 1800L, 1900L, 5000L), 1000);

        assertThat(t.firstMs()).isEqualTo(100);
        assertThat(t.p50Ms()).isEqualTo(500);
        assertThat(t.p90Ms()).isEqualTo(900);
        assertThat(t.lastMs()).isEqualTo(4000);
        assertThat(t.physicalLimitMs()).hasValue(4000);
        assertThat(t.text()).isEqualTo("0.1/0.5/0.9/4.0");
    }

    @Test
    void partitionsThatNeverReentered_leaveNoPhysicalLimit_andAreNamed() {
        Timeline t = Timeline.of(3, List.of(1500L, 2500L), 1000);

        assertThat(t.physicalLimitMs()).isEmpty();
        assertThat(t.text()).endsWith("(1 never)");
    }

    @Test
    void noReentry_isNone() {
        assertThat(Timeline.of(3, List.of(), 0).text()).isEqualTo("none");
    }
}
