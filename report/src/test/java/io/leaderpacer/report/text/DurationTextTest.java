package io.leaderpacer.report.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationTextTest {

    @Test
    void unitsAndCompounds_parseToMilliseconds() {
        assertThat(DurationText.parseMs("250ms")).isEqualTo(250);
        assertThat(DurationText.parseMs("90s")).isEqualTo(90_000);
        assertThat(DurationText.parseMs("10m")).isEqualTo(600_000);
        assertThat(DurationText.parseMs("1.5h")).isEqualTo(5_400_000);
        assertThat(DurationText.parseMs("86m30s")).isEqualTo(5_190_000);
    }

    @Test
    void bareNumberOrUnknownUnit_isRefusedWithExamples() {
        assertThatThrownBy(() -> DurationText.parseMs("600")).hasMessageContaining("10m");
        assertThatThrownBy(() -> DurationText.parseMs("5d")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> DurationText.parseMs("")).hasMessageContaining("not a duration");
    }

    @Test
    void format_isShortAndStable() {
        assertThat(DurationText.format(500)).isEqualTo("500ms");
        assertThat(DurationText.format(45_000)).isEqualTo("45s");
        assertThat(DurationText.format(750_000)).isEqualTo("12m30s");
        assertThat(DurationText.format(3_900_000)).isEqualTo("1h05m00s");
    }
}
