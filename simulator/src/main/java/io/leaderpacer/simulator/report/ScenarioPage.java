package io.leaderpacer.simulator.report;

import io.leaderpacer.simulator.run.PolicyOutcome;
import io.leaderpacer.simulator.run.ScenarioResult;
import io.leaderpacer.simulator.run.TimeSeries;
import io.leaderpacer.simulator.scenario.DurationText;
import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioEvent;
import io.leaderpacer.simulator.scenario.TopicSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns a scenario's results into a {@link ChartPage}: what was simulated, the comparison table,
 * and charts over time of P99 latency, leaders and out-of-sync partitions of the watched brokers,
 * and their gate state, one line per policy.
 */
public final class ScenarioPage {

    private ScenarioPage() {
    }

    public static ChartPage of(ScenarioResult result, String commandLine) {
        Scenario s = result.scenario();
        ChartPage.Builder page = ChartPage.builder("Leader Pacer simulation: " + s.name());
        page.paragraph(s.description());
        page.paragraph(String.format(Locale.ROOT, "Seed %d. %d brokers, %d partitions in %d topics, %s simulated. "
                        + "Reproduce with: %s", result.seed(), s.brokers(), s.totalPartitions(), s.topics().size(),
                DurationText.format(s.endMs()), commandLine));

        page.section("Results against the seed's acceptance criteria");
        page.table(ResultTable.HEADER, ResultTable.rows(result));
        page.paragraph("P99 ratio: P99 produce latency over the 10 minutes from the restarted broker's unfencing, "
                + "divided by the steady-state P99 before the first event. Recovery: from unfencing until every "
                + "restarted broker leads 99% of its preferred partitions; 'vs baseline' divides by the baseline's.");

        page.section("Policies");
        List<List<String>> policies = new ArrayList<>();
        for (PolicySpec p : s.policies()) {
            policies.add(List.of(p.name(), p.description(), p.configOverrides().toString()));
        }
        page.table(List.of("policy", "what it is", "configuration changes"), policies);

        page.section("What happens");
        List<List<String>> events = new ArrayList<>();
        for (ScenarioEvent e : s.events()) {
            events.add(List.of(DurationText.format(e.atMs()), describe(e)));
        }
        page.table(List.of("at", "event"), events);
        List<List<String>> topics = new ArrayList<>();
        for (TopicSpec t : s.topics()) {
            topics.add(List.of(t.name(), Integer.toString(t.partitions()), Integer.toString(t.replicationFactor()),
                    String.format(Locale.ROOT, "%.1f", t.produceBytesPerSecond() / 1e6),
                    String.format(Locale.ROOT, "%.0f", t.produceRequestsPerSecond()), t.skew().toString()));
        }
        page.table(List.of("topic", "partitions", "replication", "produce MB/s", "produce requests/s", "byte skew"), topics);

        page.section("Over time");
        double[] x = result.baseline().series().column("time_s");
        page.chart(chart("P99 produce latency per 10 s bucket", "P99 (ms, log scale)", x, result, "p99_ms").withLogScale());
        for (int b : watched(result)) {
            page.chart(chart("Leaders on broker " + b, "partitions led", x, result, "leaders_b" + b).withSteps());
            page.chart(chart("Out-of-sync preferred partitions of broker " + b
                    + " (OutOfSyncPreferredPartitionCount)", "partitions", x, result, "out_of_sync_b" + b));
            page.chart(chart("Gate state of broker " + b + " (0 open, 1 gated, 2 released by max-wait)", "state", x,
                    result, "gate_b" + b).withSteps());
        }
        return page.build();
    }

    private static TreeSet<Integer> watched(ScenarioResult result) {
        TreeSet<Integer> ids = new TreeSet<>();
        for (PolicyOutcome o : result.outcomes()) {
            for (Map.Entry<Integer, Integer> e : o.finalLeaders().entrySet()) {
                ids.add(e.getKey());
            }
        }
        return ids;
    }

    private static ChartPage.Chart chart(String title, String yLabel, double[] x, ScenarioResult result, String column) {
        List<ChartPage.Series> series = new ArrayList<>();
        for (PolicyOutcome o : result.outcomes()) {
            TimeSeries ts = o.series();
            if (ts.has(column) && ts.rows() == x.length) {
                series.add(new ChartPage.Series(o.policy().name(), ts.column(column)));
            }
        }
        return ChartPage.Chart.of(title, yLabel, x, series);
    }

    static String describe(ScenarioEvent e) {
        if (e instanceof ScenarioEvent.Restart r) {
            return "broker " + r.broker() + (r.crash() ? " crashes" : " restarts (controlled shutdown)") + ", down "
                    + DurationText.format(r.downMs()) + (r.diskReplaced() ? ", disk replaced (whole log to copy)" : "")
                    + (r.stuckPartitions() > 0 ? ", " + r.stuckPartitions() + " preferred partitions never catch up" : "");
        }
        if (e instanceof ScenarioEvent.FollowerStall f) {
            return String.format(Locale.ROOT, "%.1f%% of broker %d's follower replicas stall for %s", f.fraction() * 100,
                    f.broker(), DurationText.format(f.durationMs()));
        }
        if (e instanceof ScenarioEvent.ControllerFailover) {
            return "the active controller fails over (balancer memory lost)";
        }
        ScenarioEvent.ConfigChange c = (ScenarioEvent.ConfigChange) e;
        return "dynamic configuration change " + c.updates();
    }
}
