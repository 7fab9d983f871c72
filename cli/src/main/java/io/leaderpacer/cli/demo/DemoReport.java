package io.leaderpacer.cli.demo;

import io.leaderpacer.simulator.report.ChartPage;
import io.leaderpacer.simulator.report.ChartPage.Chart;
import io.leaderpacer.simulator.report.ChartPage.Series;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The demo's offline HTML report: the settings, the comparison table, four charts that overlay
 * the policies (leadership on the restarted broker, its out-of-sync count, produce P99, elections
 * per run) and the printed timelines.
 */
final class DemoReport {

    /** File name of the report inside the output directory. */
    static final String FILE_NAME = "report.html";

    private DemoReport() {
    }

    /** The page for the given runs (at least one). */
    static ChartPage page(DemoSettings settings, List<RecoveryRun> runs, RecoveryComparison comparison) {
        int b = settings.restartedBroker();
        ChartPage.Builder page = ChartPage.builder("Leader Pacer demo: broker " + b + " restarted under each policy");
        page.paragraph("A real 3-broker KRaft Kafka cluster ran inside one JVM. Broker " + b
                + " was stopped under steady produce load, data was written while it was down, and it was started"
                + " again with a follower replication throttle, so that its partitions rejoined their ISRs over"
                + " tens of seconds. The Leader Pacer agent handed its preferred leadership back, once per policy."
                + " The runs are aligned on the moment the broker was started again.");
        page.preformatted(String.join("\n", settings.describe()));

        page.section("Comparison");
        page.table(comparison.header(), comparison.rows());

        TimelineAxis axis = TimelineAxis.covering(runs);
        double[] x = axis.seconds();
        page.section("Charts");
        page.paragraph(String.format(Locale.ROOT, "Broker %d was started again at %s on the time axis;"
                + " before that it was down and led nothing.", b, clock(axis.restartSeconds())));
        page.chart(Chart.of("Preferred partitions led by broker " + b + " (after each run's elections)",
                "partitions", x, held(axis, runs, s -> s.leadersAfterRun())).withSteps());
        page.chart(Chart.of("Broker " + b + "'s preferred partitions out of its ISR", "partitions", x,
                held(axis, runs, s -> s.outOfSync())).withSteps());
        page.chart(Chart.of("Produce latency P99 per agent run interval", "P99 produce latency (ms)", x,
                held(axis, runs, TimelineSample::produceP99Ms)).withLogScale().withSteps());
        page.chart(Chart.of("Elections to broker " + b + " per agent run", "elections", x,
                summed(axis, runs, s -> s.electionsToRestarted())));

        page.section("Timelines");
        TimelineFormat format = new TimelineFormat(b);
        for (RecoveryRun run : runs) {
            StringBuilder text = new StringBuilder(run.policy()).append(": ").append(run.settings()).append('\n')
                    .append(format.header()).append('\n');
            for (TimelineSample s : run.timeline()) {
                text.append(format.line(s)).append('\n');
            }
            page.preformatted(text.toString());
        }
        return page.build();
    }

    /** Writes the page to {@code directory/report.html}, whole or not at all, and returns the file. */
    static Path write(Path directory, DemoSettings settings, List<RecoveryRun> runs, RecoveryComparison comparison)
            throws IOException {
        Path file = directory.resolve(FILE_NAME);
        page(settings, runs, comparison).writeTo(file);
        return file;
    }

    /** Seconds as the charts' axis shows them (h:mm:ss). */
    static String clock(double seconds) {
        long t = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d:%02d", t / 3600, (t % 3600) / 60, t % 60);
    }

    private static List<Series> held(TimelineAxis axis, List<RecoveryRun> runs, ToDoubleFunction<TimelineSample> v) {
        List<Series> out = new ArrayList<>();
        for (RecoveryRun r : runs) {
            out.add(new Series(r.policy(), axis.hold(r, v)));
        }
        return out;
    }

    private static List<Series> summed(TimelineAxis axis, List<RecoveryRun> runs, ToDoubleFunction<TimelineSample> v) {
        List<Series> out = new ArrayList<>();
        for (RecoveryRun r : runs) {
            out.add(new Series(r.policy(), axis.sumPerStep(r, v)));
        }
        return out;
    }
}
