package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The small cluster of the follower-throttle and pacing tests. Broker 0 of three is unfenced about 3 s after it stopped
 * (controlled shutdown 1 s, down 1 s, unfenced 1 s later) and follows 30 live partitions of 0.05 MB/s (1.5 MB/s of
 * in-sync inflow once they are back, about 0.15 MB behind each) and 6 backlog partitions of 100 MB; 100 ms ticks.
 */
final class RestartedFollowerCluster {

    private RestartedFollowerCluster() {}

    /**
     * The lines of a policy {@code gated} that keeps broker 0 out of leadership for good (threshold 0, no escape), so
     * that it only follows, under a follower throttle of {@code throttleMBps} (0: none), and the policy list naming it.
     */
    static String[] gatedOnly(double throttleMBps) {
        return new String[] {
            "customPolicies:",
            "  - name: gated",
            "    config: {leader.imbalance.election.algorithm: wait-for-sync,"
                    + " leader.imbalance.election.wait.for.sync.threshold.percent: \"0\","
                    + " leader.imbalance.election.wait.for.sync.max.wait.ms: \"0\"}",
            String.format(Locale.ROOT, "    replicationThrottleMBps: %s", throttleMBps),
            "policies: [gated]"
        };
    }

    /**
     * @param model    extra model fields, each starting with ", "
     * @param policies the lines of the scenario after the model and timeline (custom policies, the policy list)
     */
    static Scenario scenario(String model, String... policies) {
        return scenario(0, model, policies);
    }

    /**
     * The same cluster with the backlog partitions taking {@code backlogMBps} of writes together (produce requests at
     * the live topic's default rate), so that what the restarted broker must fetch grows while it catches up.
     */
    static Scenario scenario(double backlogMBps, String model, String... policies) {
        String backlogWrites =
                backlogMBps > 0 ? "produceMBps: " + backlogMBps : "produceMBps: 0, produceRequestsPerSecond: 0";
        List<String> lines = new ArrayList<>(List.of(
                "name: follower",
                "seed: 3",
                "cluster: {brokers: 3}",
                "topics:",
                "  - {name: live, partitions: 30, replicationFactor: 3, produceMBps: 1.5}",
                "  - {name: backlog, partitions: 6, replicationFactor: 3, " + backlogWrites + ","
                        + " backlog: 600MB, backlogSkew: {kind: uniform}}",
                "model: {tickMs: 100, networkInMBps: 10000, diskWriteMBps: 1000, controlledShutdownMs: 1000,"
                        + " unfenceDelayMs: 1000" + model + "}",
                "timeline: {end: 15m, events: [{at: 2m, restart: {broker: 0, down: 1s}}]}"));
        lines.addAll(List.of(policies));
        lines.add("");
        return new ScenarioLoader().parse("follower.yaml", String.join("\n", lines));
    }
}
