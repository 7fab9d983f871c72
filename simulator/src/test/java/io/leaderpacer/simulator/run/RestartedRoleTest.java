package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.model.RestartedRole;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The window P99 split by the restarted broker's role, on the calibrated load test (3 brokers, broker 1 restarted,
 * every partition replicated on it): each role's figure follows the term of the latency model that belongs to it.
 */
class RestartedRoleTest {

    private static final Scenario LOAD_TEST =
            new ScenarioLoader().load(Path.of("..", "scenarios", "09-calibrated-loadtest.yaml"));

    private static ClassFigures run(String policy, Map<ModelKey, Double> model) {
        Scenario s = LOAD_TEST.withModel(LOAD_TEST.model().with(model));
        return new Simulation(s, s.policy(policy), s.seed(), ProgressListener.NONE)
                .run()
                .classes();
    }

    @Test
    void slowLeaderAndNoFetchWait_makeTheLeaderRoleTheSlowest() {
        ClassFigures f =
                run("loadtest-immediate", Map.of(ModelKey.FETCH_WAIT_SCALE, 0.0, ModelKey.LEADER_SERVICE_MS, 200.0));
        assertThat(f.windowP99Ms(RestartedRole.LEADER))
                .isGreaterThan(2 * f.windowP99Ms(RestartedRole.IN_SYNC_FOLLOWER));
    }

    @Test
    void fastLeaderAndLongFetchWait_makeTheInSyncFollowerRoleTheSlowest() {
        ClassFigures f =
                run("loadtest-immediate", Map.of(ModelKey.FETCH_WAIT_SCALE, 50.0, ModelKey.LEADER_SERVICE_MS, 0.05));
        assertThat(f.windowP99Ms(RestartedRole.IN_SYNC_FOLLOWER))
                .isGreaterThan(2 * f.windowP99Ms(RestartedRole.LEADER));
    }

    @Test
    void brokerThatLeadsNothingInTheWindow_hasNoLeaderRoleFigure() {
        // The baseline (immediate) runs the periodic task every 300 s: its one run after unfencing comes after the
        // 90 s window.
        ClassFigures f = run("immediate", Map.of());
        assertThat(f.windowP99Ms(RestartedRole.LEADER)).isNaN();
        assertThat(f.windowP99Ms(RestartedRole.IN_SYNC_FOLLOWER)).isPositive();
        assertThat(f.windowP99Ms(RestartedRole.NOT_IN_ISR)).isPositive();
        assertThat(f.windowP99Ms(RestartedRole.NONE))
                .as("every partition has a replica on broker 1")
                .isNaN();
    }
}
