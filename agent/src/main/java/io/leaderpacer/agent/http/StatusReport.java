package io.leaderpacer.agent.http;

import io.leaderpacer.agent.GatePhaseLabel;
import io.leaderpacer.agent.ElectionResult;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.RunRecord;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON document of {@code /status}: the agent's state, the policy in force, the gate report per broker from
 * the last successful run (counts, ratio, phase, reason, since when) and a summary of recent runs.
 *
 * <p>Why records: Jackson renders them field by field, so the document's shape is visible here in one place and
 * cannot pick up anything (such as a client property) by accident.
 *
 * @param state                the agent's lifecycle state (STANDBY or ACTIVE when several instances coordinate)
 * @param instance             this instance's place in its group, or null for a single agent
 * @param cluster              the bootstrap servers
 * @param startupProblem       why the agent has not made contact yet, or null
 * @param configurationProblem why the previous configuration is still in force, or null
 * @param policy               the policy of the last run (all keys)
 * @param client               the client properties, secrets redacted
 * @param brokers              the gate report of the last successful run
 * @param runs                 recent runs, newest first
 */
public record StatusReport(
        String state,
        Instance instance,
        String cluster,
        String startupProblem,
        String configurationProblem,
        Map<String, String> policy,
        Map<String, String> client,
        List<BrokerStatus> brokers,
        List<RunSummary> runs) {

    /** Most runs listed. */
    static final int RUNS_SHOWN = 20;

    /**
     * One broker's line of the gate report.
     *
     * @param gatedSince  when the current gating episode started (ISO-8601), or null
     * @param leaders     partitions it led when the run read the cluster
     */
    public record BrokerStatus(int broker, boolean active, int preferredPartitions, int imbalanced, int outOfSync,
                               double outOfSyncPercent, double thresholdPercent, String phase, String reason,
                               String gatedSince, long gatedActiveMs, int leaders, int elected, int skippedByGate,
                               int deferredByThrottle) {
    }

    /**
     * This instance among several (exactly one is active).
     *
     * @param role           STANDBY or ACTIVE
     * @param id             this instance's id
     * @param group          the group the instances share
     * @param since          when the current role began (ISO-8601)
     * @param takeovers      how many times this instance became active
     * @param depositions    how many times it was deposed while active
     * @param activeInstance the active instance as last seen by this one, or null when unknown
     */
    public record Instance(String role, String id, String group, String since, int takeovers, int depositions,
                           String activeInstance) {
    }

    /** One run, summarised. */
    public record RunSummary(long sequence, String startedAt, long durationMs, boolean succeeded, String failure,
                             int partitions, int imbalanced, int electionsDecided, Map<String, Long> outcomes,
                             int skippedByGate, int deferredByThrottle, int gatedBrokers, long nextRunDelayMs) {
    }

    /** The report for the agent as it is now. */
    public static StatusReport of(PacerAgent agent, Map<String, String> redactedClientProperties) {
        List<RunRecord> history = agent.history();
        RunRecord lastGood = null;
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).succeeded()) {
                lastGood = history.get(i);
                break;
            }
        }
        List<BrokerStatus> brokers = new ArrayList<>();
        Map<String, String> policy = Map.of();
        if (lastGood != null) {
            ElectionDecision d = lastGood.decision().orElseThrow();
            for (BrokerGateReport r : d.brokers()) {
                brokers.add(new BrokerStatus(r.broker(), r.active(), r.preferredPartitions(), r.imbalanced(),
                        r.outOfSync(), round(r.outOfSyncPercent()), r.thresholdPercent(), GatePhaseLabel.of(r), r.reason(),
                        r.episodeStartMs() < 0 ? null : Instant.ofEpochMilli(r.episodeStartMs()).toString(),
                        r.gatedActiveMs(), lastGood.leaderCount(r.broker()), r.elected(), r.skippedByGate(),
                        r.deferredByThrottle()));
            }
        }
        if (!history.isEmpty()) {
            policy = history.get(history.size() - 1).config().toMap();
        }
        List<RunSummary> runs = new ArrayList<>();
        for (int i = history.size() - 1; i >= 0 && runs.size() < RUNS_SHOWN; i--) {
            runs.add(summary(history.get(i)));
        }
        Instance instance = agent.coordination().map(c -> new Instance(c.role().name(), c.instance(), c.group(),
                Instant.ofEpochMilli(c.sinceMs()).toString(), c.takeovers(), c.depositions(), c.activeInstance())).orElse(null);
        return new StatusReport(agent.state().name(), instance, agent.clusterLabel(), agent.startupProblem().orElse(null),
                agent.configurationProblem().orElse(null), policy, redactedClientProperties, brokers, runs);
    }

    private static RunSummary summary(RunRecord run) {
        Map<String, Long> outcomes = new LinkedHashMap<>();
        for (ElectionResult r : run.results()) {
            outcomes.merge(r.outcome().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
        }
        ElectionDecision d = run.decision().orElse(null);
        return new RunSummary(run.sequence(), Instant.ofEpochMilli(run.startedAtMs()).toString(), run.durationMs(),
                run.succeeded(), run.failure().orElse(null), run.partitionCount(),
                d == null ? 0 : d.imbalancedCount(), d == null ? 0 : d.elections().size(), outcomes,
                d == null ? 0 : d.skippedByGate(), d == null ? 0 : d.deferredByThrottle(),
                d == null ? 0 : d.gatedBrokerCount(), run.nextRunDelayMs());
    }

    private static double round(double percent) {
        return Math.round(percent * 100.0) / 100.0;
    }
}
