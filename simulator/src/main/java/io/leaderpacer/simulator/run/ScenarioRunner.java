package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.PolicySpec;
import io.leaderpacer.simulator.scenario.Scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs every policy of a scenario from the same seed, one after another (each simulation is
 * single-threaded; running them side by side is left to the caller, as the machine allows).
 */
public final class ScenarioRunner {

    private final ProgressListener progress;

    public ScenarioRunner(ProgressListener progress) {
        this.progress = progress;
    }

    /** Runs all the scenario's policies (the baseline first) with the given seed. */
    public ScenarioResult run(Scenario scenario, long seed) {
        List<PolicyOutcome> outcomes = new ArrayList<>();
        for (PolicySpec policy : scenario.policies()) {
            outcomes.add(new Simulation(scenario, policy, seed, progress).run());
        }
        return new ScenarioResult(scenario, seed, outcomes);
    }
}
