package io.leaderpacer.agent.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures of one chaos run, printed and written to {@code target/chaos-report.txt}.
 *
 * <p>Why a record: the report is the chaos test's answer to "what did it survive and what did it check"; one
 * immutable value written once keeps the printed lines and the file identical.
 *
 * @param seed                  the plan's seed (replay with {@code -Dchaos.seed})
 * @param steps                 steps in the plan
 * @param restartsSurvived      broker restarts (controlled or crash) done with the agent running
 * @param crashes               of them, crashes (no controlled shutdown)
 * @param slowFollowerEpisodes  restarts followed by a throttled catch-up
 * @param listChanges           changes of the deprioritized list, the final clearing included
 * @param agentStops            active agent instances closed (left the group) with a standby running (0 for a
 *                              single agent)
 * @param agentCrashes          active agent instances stopped without leaving the group
 * @param takeovers             times a standby became the active instance after another had been active
 * @param runs                  agent runs checked
 * @param failedRuns            of them, runs that failed (and were retried)
 * @param cappedRuns            of them, runs that reached the cap (more work left)
 * @param gatedRuns             of them, runs that held a broker back at the wait-for-sync gate
 * @param electionsDecided      elections the engine decided
 * @param electionsMade         elections Kafka carried out
 * @param checksPassed          single invariant checks that passed
 * @param settledRuns           runs after which the settled state-topic checks applied
 * @param stateReadFailures     runs whose state checks were skipped because the test could not read the topic
 * @param failures              invariant violations (must be 0)
 * @param chaosMs               wall time of the plan's steps
 * @param settleMs              wall time from the last step to every preferred leader and original order back
 * @param loadSent              records the steady load sent
 * @param loadFailed            of them, sends that failed (brokers were down)
 */
record ChaosReport(long seed, int steps, long restartsSurvived, long crashes, long slowFollowerEpisodes, long listChanges,
                   long agentStops, long agentCrashes, long takeovers, long runs, long failedRuns, long cappedRuns,
                   long gatedRuns, long electionsDecided, long electionsMade,
                   long checksPassed, long settledRuns, long stateReadFailures, long failures, long chaosMs, long settleMs,
                   long loadSent, long loadFailed) {

    /** The figures as name/value pairs, in report order. */
    Map<String, Object> figures() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("seed", seed);
        f.put("steps", steps);
        f.put("restarts survived", restartsSurvived);
        f.put("  of which crashes", crashes);
        f.put("slow-follower episodes", slowFollowerEpisodes);
        f.put("list changes", listChanges);
        f.put("agent stops", agentStops);
        f.put("agent crashes", agentCrashes);
        f.put("takeovers", takeovers);
        f.put("runs", runs);
        f.put("  of which failed and retried", failedRuns);
        f.put("  of which reached the cap", cappedRuns);
        f.put("  of which held a broker at the gate", gatedRuns);
        f.put("elections decided", electionsDecided);
        f.put("elections made", electionsMade);
        f.put("invariant checks passed", checksPassed);
        f.put("settled runs checked", settledRuns);
        f.put("state reads skipped", stateReadFailures);
        f.put("failures", failures);
        f.put("chaos wall ms", chaosMs);
        f.put("settle wall ms", settleMs);
        f.put("load records sent", loadSent);
        f.put("load sends failed", loadFailed);
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
