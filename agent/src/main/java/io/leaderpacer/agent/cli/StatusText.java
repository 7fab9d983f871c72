package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.http.StatusReport;
import io.leaderpacer.agent.http.StatusReport.BrokerStatus;
import io.leaderpacer.agent.http.StatusReport.RunSummary;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.policy.PresetMatch;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The text {@code pacer status} prints from an agent's {@code /status}: who it is, its problems, the gate table of
 * its last successful run and its last runs.
 *
 * <p>Why a class: the command fetches, this renders; tests render a report without any HTTP. The columns are those
 * of {@code pacer plan}, so that an operator reads both the same way.
 */
final class StatusText {

    /** Runs listed, newest first. */
    static final int RUNS_LISTED = 5;

    private StatusText() {}

    /** The problems an operator must act on; empty when there are none. */
    static List<String> problems(StatusReport s) {
        List<String> problems = new ArrayList<>();
        if (s.startupProblem() != null) {
            problems.add("start-up: " + s.startupProblem());
        }
        if (s.configurationProblem() != null) {
            problems.add("configuration: " + s.configurationProblem());
        }
        if ("REFUSED".equals(s.state()) || "STOPPED".equals(s.state())) {
            problems.add("the agent is " + s.state().toLowerCase(Locale.ROOT));
        }
        if (s.runs() != null && !s.runs().isEmpty() && !s.runs().get(0).succeeded()) {
            problems.add("the last run failed: " + s.runs().get(0).failure());
        }
        if (s.pacing() != null && s.pacing().problem() != null) {
            problems.add(s.pacing().problem());
        }
        if (s.slowRead() != null) {
            problems.add(s.slowRead().describe());
        }
        return problems;
    }

    static void print(PrintWriter out, String source, StatusReport s) {
        out.printf(Locale.ROOT, "Leader Pacer at %s: %s, cluster %s%n", source, s.state(), s.cluster());
        instance(out, s.instance());
        List<String> problems = problems(s);
        out.println(problems.isEmpty() ? "Problems: none." : "Problems:");
        problems.forEach(p -> out.println("  - " + p));
        Map<String, String> policy = s.policy() == null ? Map.of() : s.policy();
        policy(out, policy);
        out.println();
        gate(out, s.brokers() == null ? List.of() : s.brokers());
        out.println();
        if (s.pacing() != null) {
            PacingText.print(out, pacingConfig(policy), s.pacing().toReport(), false);
            out.println();
        }
        runs(out, s.runs() == null ? List.of() : s.runs());
        out.flush();
    }

    /** Which instance answered and which one is active; nothing from an agent that does not report it. */
    private static void instance(PrintWriter out, StatusReport.Instance i) {
        if (i == null) {
            return;
        }
        out.printf(
                Locale.ROOT,
                "Instance %s of group %s: %s since %s; active instance: %s%n",
                i.id(),
                i.group(),
                i.role(),
                i.since(),
                i.activeInstance() == null ? "unknown" : i.activeInstance());
    }

    /** The policy keys in force, and the preset they match; nothing when the agent reported none. */
    private static void policy(PrintWriter out, Map<String, String> policy) {
        if (policy.isEmpty()) {
            return;
        }
        out.printf(
                Locale.ROOT,
                "Policy: %s, threshold %s%%, max.per.run %s, throttle.interval.ms %s, check interval %s s%n",
                policy.get(ConfigKey.ALGORITHM.key()),
                policy.get(ConfigKey.THRESHOLD_PERCENT.key()),
                policy.get(ConfigKey.MAX_PER_RUN.key()),
                policy.get(ConfigKey.THROTTLE_INTERVAL_MS.key()),
                policy.get(ConfigKey.CHECK_INTERVAL_SECONDS.key()));
        presetLine(policy).ifPresent(out::println);
    }

    /** The gate's table as the last successful run left it. */
    private static void gate(PrintWriter out, List<BrokerStatus> brokers) {
        if (brokers.isEmpty()) {
            out.println("Gate: no successful run yet.");
            return;
        }
        out.println("Gate at the last successful run:");
        GateTable.header(out);
        for (BrokerStatus b : brokers) {
            GateTable.row(
                    out,
                    b.broker(),
                    b.active(),
                    b.leaders(),
                    b.partitions().preferredPartitions(),
                    b.partitions().outOfSync(),
                    b.gate().outOfSyncPercent(),
                    b.partitions().imbalanced(),
                    b.gate().phase().toLowerCase(Locale.ROOT).replace('_', '-'),
                    b.gate().reason());
        }
    }

    /**
     * The pacing settings to word the agent's pacing with; static pacing's for an agent of another version, whose
     * keys are not all known here: what it did is still shown.
     */
    private static CatchUpPacing pacingConfig(Map<String, String> policy) {
        try {
            return PacerConfig.fromMap(policy).pacing();
        } catch (ConfigException e) {
            return PacerConfig.fromMap(Map.of(ConfigKey.CATCH_UP_PACING.key(), "static"))
                    .pacing();
        }
    }

    /** The newest runs, at most {@link #RUNS_LISTED}. */
    private static void runs(PrintWriter out, List<RunSummary> runs) {
        if (runs.isEmpty()) {
            out.println("Runs: none yet.");
            return;
        }
        out.println("Last runs, newest first:");
        for (RunSummary r : runs.subList(0, Math.min(RUNS_LISTED, runs.size()))) {
            out.println("  " + run(r));
        }
    }

    /**
     * Which preset the agent's keys in force are ({@link PresetMatch}); empty for an agent of another version, whose
     * keys this one cannot all read.
     */
    static Optional<String> presetLine(Map<String, String> policy) {
        try {
            return Optional.of(PresetMatch.of(PacerConfig.fromMap(policy)).describe());
        } catch (ConfigException e) {
            return Optional.empty();
        }
    }

    private static String run(RunSummary r) {
        String head = String.format(Locale.ROOT, "run %d at %s, %d ms: ", r.sequence(), r.startedAt(), r.durationMs());
        if (!r.succeeded()) {
            return head + "FAILED: " + r.failure();
        }
        long elected = r.outcomes() == null ? 0 : r.outcomes().getOrDefault("elected", 0L);
        return head
                + String.format(
                        Locale.ROOT,
                        "%d imbalanced, %d elections decided, %d elected, %d held back by the gate,"
                                + " %d by the cap, %d gated broker(s); next run in %d ms",
                        r.imbalanced(),
                        r.electionsDecided(),
                        elected,
                        r.skippedByGate(),
                        r.deferredByThrottle(),
                        r.gatedBrokers(),
                        r.nextRunDelayMs());
    }
}
