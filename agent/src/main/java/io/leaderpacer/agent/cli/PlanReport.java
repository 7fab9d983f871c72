package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.core.GatePhaseLabel;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.policy.PresetMatch;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The text {@code pacer plan} prints: per broker its preferred partitions, out-of-sync count and ratio, gate verdict
 * and reason; then the elections the run would make now and what it would hold back.
 *
 * <p>Why a class: the same rendering serves a real cluster and the built-in example, and tests read it.
 */
final class PlanReport {

    /** Elections listed one per line; the rest are counted. */
    static final int ELECTIONS_LISTED = 50;

    private PlanReport() {}

    static void print(PrintWriter out, String cluster, RunRecord run) {
        ElectionDecision d = run.decision().orElseThrow();
        PacerConfig c = run.config();
        out.printf(
                Locale.ROOT,
                "Plan for %s: %d partitions, %d brokers. Nothing is changed.%n",
                cluster,
                run.partitionCount(),
                d.brokers().size());
        out.printf(
                Locale.ROOT,
                "Policy: %s, threshold %s%%, max.per.run %d, throttle.interval.ms %d, check interval %d s%s%n",
                c.algorithm().configValue(),
                c.valueOf(ConfigKey.THRESHOLD_PERCENT),
                c.maxPerRun(),
                c.throttleIntervalMs(),
                c.checkIntervalSeconds(),
                c.deprioritizedBrokers().isEmpty() ? "" : ", deprioritized " + c.deprioritizedBrokers());
        out.println(PresetMatch.of(c).describe());
        out.println();
        GateTable.header(out);
        for (BrokerGateReport r : d.brokers()) {
            GateTable.row(
                    out,
                    r.broker(),
                    r.active(),
                    run.leaderCount(r.broker()),
                    r.partitions().preferredPartitions(),
                    r.partitions().outOfSync(),
                    r.ratio().percent(),
                    r.partitions().imbalanced(),
                    gate(r),
                    r.verdict().reason());
        }
        out.println();
        if (d.elections().isEmpty()) {
            out.println("Elections this run would make now: none.");
        } else {
            out.printf(
                    Locale.ROOT,
                    "Elections this run would make now: %d%s%n",
                    d.elections().size(),
                    d.moreWork() ? " (cap reached; more would follow after " + d.nextRunDelayMs() + " ms)" : "");
            int shown = 0;
            for (Election e : d.elections()) {
                if (shown++ == ELECTIONS_LISTED) {
                    out.printf(Locale.ROOT, "  ... and %d more%n", d.elections().size() - ELECTIONS_LISTED);
                    break;
                }
                out.printf(
                        Locale.ROOT,
                        "  %s: leader %s -> %d%n",
                        e.partition(),
                        e.previousLeader() < 0 ? "none" : Integer.toString(e.previousLeader()),
                        e.newLeader());
            }
        }
        out.printf(
                Locale.ROOT,
                "Held back: %d by the gate, %d by the cap. %d partitions imbalanced. Next run in %d ms (%s).%n",
                d.skippedByGate(),
                d.deferredByThrottle(),
                d.imbalancedCount(),
                d.nextRunDelayMs(),
                d.nextRunReason());
        out.flush();
    }

    private static String gate(BrokerGateReport r) {
        return GatePhaseLabel.of(r).toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
