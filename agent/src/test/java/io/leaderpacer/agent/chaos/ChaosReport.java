package io.leaderpacer.agent.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The figures of one chaos run, printed and written to {@code target/chaos-report.txt}.
 *
 * <p>Why a record: the report is the chaos test's answer to "what did it survive and what did it check"; one
 * immutable value written once keeps the printed lines and the file identical.
 *
 * @param plan   the plan that ran
 * @param faults the faults done to the cluster
 * @param agents what happened to the agent instances (all 0 for a single agent)
 * @param runs   the agent runs checked
 * @param checks the invariant checks
 * @param timing wall times
 * @param load   the steady load
 */
record ChaosReport(Plan plan, Faults faults, AgentFaults agents, Runs runs, Checks checks, Timing timing, Load load) {

    /**
     * The plan.
     *
     * @param seed  the plan's seed (replay with {@code -Dchaos.seed})
     * @param steps steps in the plan
     */
    record Plan(long seed, int steps) {}

    /**
     * Faults done to the cluster.
     *
     * @param restartsSurvived     broker restarts (controlled or crash) done with the agent running
     * @param crashes              of them, crashes (no controlled shutdown)
     * @param slowFollowerEpisodes restarts followed by a throttled catch-up
     * @param listChanges          changes of the deprioritized list, the final clearing included
     */
    record Faults(long restartsSurvived, long crashes, long slowFollowerEpisodes, long listChanges) {
        static Faults of(FaultInjector injector) {
            return new Faults(
                    injector.restarts(), injector.crashes(), injector.slowFollowerEpisodes(), injector.listChanges());
        }
    }

    /**
     * What happened to the agent instances.
     *
     * @param stops     active agent instances closed (left the group) with a standby running
     * @param crashes   active agent instances stopped without leaving the group
     * @param takeovers times a standby became the active instance after another had been active
     */
    record AgentFaults(long stops, long crashes, long takeovers) {
        /** A single agent: nothing stopped, nothing taken over. */
        static final AgentFaults NONE = new AgentFaults(0, 0, 0);
    }

    /**
     * The agent runs checked, over every instance.
     *
     * @param runs             agent runs checked
     * @param failed           of them, runs that failed (and were retried)
     * @param capped           of them, runs that reached the cap (more work left)
     * @param gated            of them, runs that held a broker back at the wait-for-sync gate
     * @param electionsDecided elections the engine decided
     * @param electionsMade    elections Kafka carried out
     */
    record Runs(long runs, long failed, long capped, long gated, long electionsDecided, long electionsMade) {
        static Runs of(List<RunInvariantMonitor> monitors) {
            return new Runs(
                    sum(monitors, RunInvariantMonitor::runs),
                    sum(monitors, RunInvariantMonitor::failedRuns),
                    sum(monitors, RunInvariantMonitor::cappedRuns),
                    sum(monitors, RunInvariantMonitor::gatedRuns),
                    sum(monitors, RunInvariantMonitor::electionsDecided),
                    sum(monitors, RunInvariantMonitor::electionsMade));
        }
    }

    /**
     * The invariant checks, over every instance.
     *
     * @param passed            single invariant checks that passed
     * @param settledRuns       runs after which the settled state-topic checks applied
     * @param stateReadFailures runs whose state checks were skipped because the test could not read the topic
     * @param failures          invariant violations (must be 0)
     */
    record Checks(long passed, long settledRuns, long stateReadFailures, long failures) {
        static Checks of(List<RunInvariantMonitor> monitors) {
            return new Checks(
                    sum(monitors, RunInvariantMonitor::checksPassed),
                    sum(monitors, RunInvariantMonitor::settledRuns),
                    sum(monitors, RunInvariantMonitor::stateReadFailures),
                    sum(monitors, RunInvariantMonitor::violations));
        }
    }

    /**
     * Wall times.
     *
     * @param chaosMs  of the plan's steps
     * @param settleMs from the last step to every preferred leader and original order back
     */
    record Timing(long chaosMs, long settleMs) {}

    /**
     * The steady load.
     *
     * @param sent   records sent
     * @param failed of them, sends that failed (brokers were down)
     */
    record Load(long sent, long failed) {}

    private static long sum(List<RunInvariantMonitor> monitors, ToLongFunction<RunInvariantMonitor> figure) {
        return monitors.stream().mapToLong(figure).sum();
    }

    /** The figures as name/value pairs, in report order. */
    Map<String, Object> figures() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seed", plan.seed());
        f.put("steps", plan.steps());
        f.put("restarts survived", faults.restartsSurvived());
        f.put("  of which crashes", faults.crashes());
        f.put("slow-follower episodes", faults.slowFollowerEpisodes());
        f.put("list changes", faults.listChanges());
        f.put("agent stops", agents.stops());
        f.put("agent crashes", agents.crashes());
        f.put("takeovers", agents.takeovers());
        f.put("runs", runs.runs());
        f.put("  of which failed and retried", runs.failed());
        f.put("  of which reached the cap", runs.capped());
        f.put("  of which held a broker at the gate", runs.gated());
        f.put("elections decided", runs.electionsDecided());
        f.put("elections made", runs.electionsMade());
        f.put("invariant checks passed", checks.passed());
        f.put("settled runs checked", checks.settledRuns());
        f.put("state reads skipped", checks.stateReadFailures());
        f.put("failures", checks.failures());
        f.put("chaos wall ms", timing.chaosMs());
        f.put("settle wall ms", timing.settleMs());
        f.put("load records sent", load.sent());
        f.put("load sends failed", load.failed());
        return f;
    }

    /** The report as text, one figure per line. */
    String text() {
        StringBuilder sb = new StringBuilder("Leader Pacer chaos report\n");
        figures().forEach((k, v) -> sb.append(String.format("%-38s %s\n", k, v)));
        return sb.toString();
    }

    void writeTo(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text(), StandardCharsets.UTF_8);
    }
}
