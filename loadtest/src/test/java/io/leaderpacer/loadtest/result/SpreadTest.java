package io.leaderpacer.loadtest.result;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpreadTest {

    @Test
    void oddCount_medianIsTheMiddle_andRangeIsShown() {
        Spread s = Spread.of(3.0, 1.0, 2.0);
        assertThat(s.median()).isEqualTo(2.0);
        assertThat(s.text("%.1f")).isEqualTo("2.0 (1.0–3.0)");
    }

    @Test
    void evenCount_medianIsTheMeanOfTheTwoMiddle_andNaNsAreLeftOut() {
        Spread s = Spread.of(4.0, Double.NaN, 1.0, 2.0, 3.0);
        assertThat(s.median()).isEqualTo(2.5);
        assertThat(s.n()).isEqualTo(4);
    }

    @Test
    void oneValue_hasNoRange_andNoneIsNa() {
        assertThat(Spread.of(1.25).text("%.2f")).isEqualTo("1.25");
        assertThat(Spread.of().text("%.2f")).isEqualTo("n/a");
    }
}
