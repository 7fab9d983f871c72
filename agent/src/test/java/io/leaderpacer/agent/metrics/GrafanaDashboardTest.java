package io.leaderpacer.agent.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/grafana-dashboard.json only queries metrics the agent exports: a renamed metric must not leave an empty
 * panel behind for an operator to discover during an incident.
 */
class GrafanaDashboardTest {

    private static final Path DASHBOARD = Path.of("..", "docs", "grafana-dashboard.json");
    /** PromQL's words that are not metric names: functions, aggregations, keywords. */
    private static final Set<String> PROMQL = Set.of(
            "sum",
            "max",
            "min",
            "avg",
            "count",
            "rate",
            "increase",
            "irate",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "and",
            "or",
            "unless",
            "histogram_quantile",
            "label_values",
            "offset");

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

    @Test
    void everyMetricTheDashboardQueries_isOneTheAgentExports() throws Exception {
        Set<String> exported = exportedNames();
        Set<String> queried = new TreeSet<>();
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        dashboard.findValues("expr").forEach(e -> queried.addAll(metricNames(e.asText())));
        dashboard.findValues("query").forEach(q -> queried.addAll(metricNames(q.asText())));

        assertThat(queried)
                .as("the dashboard queries something")
                .contains(
                        "BrokerGated",
                        "OutOfSyncPreferredPartitionCount",
                        "PreferredLeaderElectionResults_total",
                        "LeaderPacerRuns_total",
                        "LeaderPacerRunFailures_total");
        assertThat(exported).containsAll(queried);
    }

    /** What /metrics shows after one run and one pacing look, with the active-instance gauge: every name it can export. */
    static Set<String> exportedNames() {
        Set<String> names = new TreeSet<>();
        try (PacerMetrics m = PacerMetrics.prometheusOnly()) {
            m.onRun(PacerMetricsTest.handWorkedRun());
            m.onPacing(PacerMetricsTest.pacingLook());
            m.activeInstanceGauge(() -> true);
            m.pacingOwnsGauge(() -> false);
            for (String line : m.scrape().split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    Matcher id = IDENTIFIER.matcher(line);
                    if (id.lookingAt()) {
                        names.add(id.group());
                    }
                }
            }
        }
        return names;
    }

    /** The metric names of one PromQL expression: identifiers outside label matchers, grouping and ranges. */
    static Set<String> metricNames(String promql) {
        String bare = promql.replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("(?i)\\b(by|without)\\s*\\([^)]*\\)", " ")
                .replaceAll("\\$\\w+", " ")
                .replaceAll("\"[^\"]*\"", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(bare);
        while (m.find()) {
            String word = m.group();
            if (!PROMQL.contains(word) && !word.matches("job")) {
                names.add(word);
            }
        }
        return names;
    }
}
