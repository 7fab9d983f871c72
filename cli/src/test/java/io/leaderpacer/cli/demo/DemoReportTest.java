package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.GatePhase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DemoReportTest {

    private static RecoveryRun run(String policy, GatePhase phase) {
        return new RecoveryRun(policy, "leader.imbalance.election.algorithm=" + policy, 1, 2_000, List.of(
                new TimelineSample(1_000, false, 100, 100, phase, 0, 0, 0, 2.0, 200),
                new TimelineSample(3_000, true, 40, 100, phase, 0, 0, 0, 3.0, 200),
                new TimelineSample(5_000, true, 0, 100, phase, 0, 100, 100, 8.0, 200)),
                5.0, 800);
    }

    @Test
    void report_isWrittenWithTheComparisonAndTheFourChartsForBothPolicies(@TempDir Path dir) throws Exception {
        List<RecoveryRun> runs = List.of(run("wait-for-sync", GatePhase.GATED), run("immediate", GatePhase.NOT_APPLICABLE));
        RecoveryComparison comparison = new RecoveryComparison(List.of(
                RecoverySummary.of(runs.get(0), 10), RecoverySummary.of(runs.get(1), 10)));

        Path file = DemoReport.write(dir.resolve("nested"), DemoSettings.quick(), runs, comparison);

        assertThat(file).isEqualTo(dir.resolve("nested").resolve("report.html"));
        String html = Files.readString(file);
        assertThat(html).startsWith("<!DOCTYPE html>");
        assertThat(html).contains("Preferred partitions led by broker 1", "out of its ISR", "Produce latency P99",
                "Elections to broker 1 per agent run");
        assertThat(html.split("drawChart\\(\"chart", -1)).hasSize(5);
        assertThat(html).contains("\"wait-for-sync\", \"immediate\"");
        assertThat(html).contains("leaders returned while &gt;10% out of sync");
        // uPlot is inlined: the page works offline.
        assertThat(html).contains("uPlot").doesNotContain("<script src=");
        // The printed timelines are included.
        assertThat(html).contains("100/100 (100%)");
    }
}
