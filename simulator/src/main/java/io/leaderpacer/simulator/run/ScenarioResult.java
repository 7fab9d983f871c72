package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.StandardPolicies;

import java.util.List;

/**
 * Every policy's outcome on one scenario from one seed, with the baseline they are judged against.
 *
 * @param scenario the scenario as simulated (possibly with a seed override)
 * @param seed     the seed every simulation used
 * @param outcomes in the scenario's policy order, the baseline first
 */
public record ScenarioResult(Scenario scenario, long seed, List<PolicyOutcome> outcomes) {

    public ScenarioResult {
        outcomes = List.copyOf(outcomes);
        if (outcomes.isEmpty() || !outcomes.get(0).policy().name().equals(StandardPolicies.BASELINE)) {
            throw new IllegalArgumentException("the baseline must come first");
        }
    }

    public PolicyOutcome baseline() {
        return outcomes.get(0);
    }

    /** The outcome of a policy by name. */
    public PolicyOutcome outcome(String policy) {
        for (PolicyOutcome o : outcomes) {
            if (o.policy().name().equals(policy)) {
                return o;
            }
        }
        throw new IllegalArgumentException("policy '" + policy + "' was not simulated on " + scenario.name());
    }

    public KipAcceptance acceptance(PolicyOutcome outcome) {
        return KipAcceptance.of(outcome, baseline());
    }

    public KipAcceptance acceptance(String policy) {
        return acceptance(outcome(policy));
    }
}
