package io.leaderpacer.agent.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * config/pacer-alerts.yml, the Prometheus alert rules shipped in the tarball, only query metrics the agent exports, and
 * each alert has a runbook entry in docs/AGENT.md: an alert on a renamed metric never fires, and one with no runbook
 * leaves the operator at 3 a.m. with a name and nothing to do.
 */
class AlertRulesTest {

    private static final Path RULES = Path.of("..", "config", "pacer-alerts.yml");
    private static final Path DASHBOARD = Path.of("..", "docs", "grafana-dashboard.json");
    private static final Path AGENT = Path.of("..", "docs", "AGENT.md");
    private static final Pattern EXPR = Pattern.compile("^\\s*expr:\\s*(.+)$", Pattern.MULTILINE);
    private static final Pattern RUNBOOK = Pattern.compile("runbook:\\s*\"docs/AGENT\\.md#([a-z0-9-]+)\"");
    private static final Pattern ALERT = Pattern.compile("^\\s*- alert:\\s*(\\S+)$", Pattern.MULTILINE);

    @Test
    void everyMetricTheRulesQuery_isOneTheAgentExports() throws Exception {
        Set<String> queried = queriedByRules();

        assertThat(queried)
                .as("the rules query what an operator must be woken for")
                .contains(
                        "leader_pacer_agent_active",
                        "CatchUpPacingOwnsThrottles",
                        "CatchUpPacedBrokerCount",
                        "CatchUpPacingLookFailures_total",
                        "BrokerGated",
                        "PreferredReplicaImbalanceCount");
        assertThat(GrafanaDashboardTest.exportedNames()).containsAll(queried);
    }

    @Test
    void everyMetricTheRulesQuery_hasAPanelInTheDashboard() throws Exception {
        Set<String> queried = queriedByRules();
        Set<String> panelled = new TreeSet<>();
        new ObjectMapper()
                .readTree(DASHBOARD.toFile())
                .findValues("expr")
                .forEach(e -> panelled.addAll(GrafanaDashboardTest.metricNames(e.asText())));

        assertThat(panelled)
                .as("an alert the dashboard cannot show is one nobody can look into")
                .containsAll(queried);
    }

    @Test
    void everyAlert_hasARunbookEntryInAgentMd() throws Exception {
        String rules = Files.readString(RULES);
        String agent = Files.readString(AGENT);
        List<String> alerts = new ArrayList<>();
        Matcher a = ALERT.matcher(rules);
        while (a.find()) {
            alerts.add(a.group(1));
        }
        List<String> anchors = new ArrayList<>();
        Matcher r = RUNBOOK.matcher(rules);
        while (r.find()) {
            anchors.add(r.group(1));
        }

        assertThat(anchors).as("one runbook per alert").hasSameSizeAs(alerts).isNotEmpty();
        for (String anchor : anchors) {
            assertThat(agent).as("docs/AGENT.md has the entry %s", anchor).contains("<a id=\"" + anchor + "\"></a>");
        }
    }

    private static Set<String> queriedByRules() throws Exception {
        String rules = Files.readString(RULES);
        Set<String> queried = new TreeSet<>();
        Matcher m = EXPR.matcher(rules);
        while (m.find()) {
            queried.addAll(GrafanaDashboardTest.metricNames(m.group(1).replaceAll("\\b(absent|and|or)\\b", " ")));
        }
        return queried;
    }
}
