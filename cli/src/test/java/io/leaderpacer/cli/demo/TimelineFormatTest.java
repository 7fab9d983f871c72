package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.GatePhase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineFormatTest {

    private final TimelineFormat format = new TimelineFormat(1);

    private static TimelineSample sample(long atMs, boolean active, int outOfSync, GatePhase phase, int leaders,
                                         int elected, double p99) {
        return new TimelineSample(atMs, active, outOfSync, 100, phase, leaders, elected, elected, p99, 200);
    }

    @Test
    void gatedRun_showsCountsRatioPhaseAndLatency() {
        String line = format.line(sample(12_345, true, 37, GatePhase.GATED, 0, 0, 4.25));

        assertThat(line).startsWith("  +12.3s  up      37/100 (37%)      gated    ");
        assertThat(line).contains("   0 [                    ]");
        assertThat(line).endsWith("       0       4.3 ms");
    }

    @Test
    void brokerDownBeforeTheRestart_showsDownAndNegativeTime() {
        String line = format.line(sample(-1_500, false, 100, GatePhase.GATED, 0, 0, 3.0));

        assertThat(line).startsWith("   -1.5s  down    100/100 (100%)");
    }

    @Test
    void halfTheLeadershipBack_fillsHalfTheBar() {
        String line = format.line(sample(30_000, true, 0, GatePhase.OPEN, 50, 20, 2.0));

        assertThat(line).contains("  50 [##########          ]").contains("open");
    }

    @Test
    void immediatePolicy_showsNotApplicableGate() {
        assertThat(format.line(sample(1000, true, 5, GatePhase.NOT_APPLICABLE, 95, 3, 2.0))).contains(" n/a ");
    }

    @Test
    void downBroker_showsInactive_notOpen() {
        assertThat(format.line(sample(1000, false, 100, GatePhase.OPEN, 0, 0, 2.0))).contains(" down ").contains(" inactive ")
                .doesNotContain("open");
    }

    @Test
    void intervalWithoutSends_showsDashForLatency() {
        assertThat(format.line(sample(1000, true, 0, GatePhase.OPEN, 100, 0, Double.NaN))).endsWith(" -");
    }

    @Test
    void headerAndLines_lineUpColumnByColumn() {
        String header = format.header();
        String line = format.line(sample(12_345, true, 37, GatePhase.GATED, 100, 20, 4.25));

        assertThat(header.indexOf("out-of-sync")).isEqualTo(line.indexOf("37/100"));
        assertThat(header.indexOf("gate")).isEqualTo(line.indexOf("gated"));
        assertThat(header.indexOf("leaders on b1")).isEqualTo(line.indexOf(" 100 [") );
        assertThat(header.length()).isEqualTo(line.length());
    }

    @Test
    void bar_isClampedToItsWidth() {
        assertThat(TimelineFormat.bar(150, 100)).isEqualTo("[" + "#".repeat(20) + "]");
        assertThat(TimelineFormat.bar(3, 0)).isEqualTo("[" + " ".repeat(20) + "]");
    }
}
