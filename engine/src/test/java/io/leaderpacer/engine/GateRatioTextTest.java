package io.leaderpacer.engine;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The gate's hand-rolled ratio text prints exactly what {@code %.2f} would, without its cost. */
class GateRatioTextTest {

    @Test
    void percentWithTwoDecimals_matchesStringFormatForEveryRatioUpTo500() {
        for (int den = 1; den <= 500; den++) {
            for (int num = 0; num <= den; num++) {
                String expected = String.format(Locale.ROOT, "%.2f", 100.0 * num / den);
                assertThat(Gate.percentWithTwoDecimals(num, den))
                        .as("%d/%d", num, den)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void percentWithTwoDecimals_roundsHalfUpAndHandlesLargeCounts() {
        assertThat(Gate.percentWithTwoDecimals(1, 4_000)).isEqualTo("0.03");
        assertThat(Gate.percentWithTwoDecimals(1, 32)).isEqualTo("3.13");
        assertThat(Gate.percentWithTwoDecimals(250, 5_000)).isEqualTo("5.00");
        assertThat(Gate.percentWithTwoDecimals(999_999, 1_000_000)).isEqualTo("100.00");
        assertThat(Gate.percentWithTwoDecimals(Integer.MAX_VALUE, Integer.MAX_VALUE))
                .isEqualTo("100.00");
        assertThat(Gate.percentWithTwoDecimals(0, 0)).isEqualTo("0.00");
    }
}
