package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the scenario files shipped under scenarios/ for tests, scaled down where the asserted
 * effect does not depend on the partition count (the full-size runs are for the docs).
 */
final class ShippedScenarios {

    private ShippedScenarios() {}

    static Scenario load(String fileName) {
        return new ScenarioLoader().load(Path.of("..", "scenarios", fileName));
    }

    /** Runs the named policies (the baseline is always first) of a shipped scenario. */
    static ScenarioResult run(String fileName, int scaleDown, String... policies) {
        return run(load(fileName), fileName, scaleDown, policies);
    }

    /**
     * The same without fetcher sharing ({@code followerFetchWaitScale} and {@code throttledFetchWaitScale} 0): only what leadership does to latency,
     * the part a leadership policy controls. With sharing on, the in-sync follower's wait behind catch-up fetches
     * dominates every policy's P99 alike (as the real load test measured), and would hide what the gate changes.
     */
    static ScenarioResult leadershipOnly(String fileName, int scaleDown, String... policies) {
        Scenario s = load(fileName);
        s = s.withModel(
                s.model().with(Map.of(ModelKey.FETCH_WAIT_SCALE, 0.0, ModelKey.THROTTLED_FETCH_WAIT_SCALE, 0.0)));
        return run(s, fileName, scaleDown, policies);
    }

    private static ScenarioResult run(Scenario s, String fileName, int scaleDown, String... policies) {
        if (scaleDown > 1) {
            s = s.scaledDown(scaleDown);
        }
        if (policies.length > 0) {
            List<PolicySpec> chosen = new ArrayList<>();
            chosen.add(s.policies().get(0));
            for (String name : policies) {
                PolicySpec p = s.policy(name);
                if (p == null) {
                    throw new IllegalArgumentException(name + " is not a policy of " + fileName);
                }
                chosen.add(p);
            }
            s = s.withPolicies(chosen);
        }
        return new ScenarioRunner(ProgressListener.NONE).run(s, s.seed());
    }

    /** Seconds since the start of the given bucket row. */
    static double time(TimeSeries ts, int row) {
        return ts.value("time_s", row);
    }
}
