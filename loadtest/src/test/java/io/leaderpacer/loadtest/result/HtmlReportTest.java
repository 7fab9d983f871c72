package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.observe.PacingSample;
import io.leaderpacer.report.ChartPage;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: the report's chart of what catch-up pacing set, against time. */
class HtmlReportTest {

    @Test
    void pacingChart_showsTheRateAtEachLookInMiB_zeroWhereNotThrottled_andBytesBehindInHundredthsOfAGiB() {
        RoundResult r = Rounds.round("paced", 1, 100, 100, 0, 60_000L, 50_000, 0.2);
        RoundResult.Trace trace = new RoundResult.Trace(
                r.trace().agentRuns(),
                r.trace().samples(),
                r.trace().cpu(),
                List.of(
                        new PacingSample(1000, 20L << 20, -1, "down", "", ""),
                        new PacingSample(3000, 25L << 20, 1L << 29, "raised", "", ""),
                        new PacingSample(5000, -1, 0, "in sync", "", "")));
        RoundResult paced =
                new RoundResult(r.policy(), r.round(), r.latency(), r.moments(), r.recovery(), r.saturation(), trace);

        ChartPage.Chart chart = HtmlReport.pacingChart(paced);

        assertThat(chart.xSeconds()).containsExactly(1.0, 3.0, 5.0);
        assertThat(chart.series().get(0).values()).containsExactly(20.0, 25.0, 0.0);
        assertThat(chart.series().get(1).values()).containsExactly(Double.NaN, 50.0, 0.0);
    }
}
