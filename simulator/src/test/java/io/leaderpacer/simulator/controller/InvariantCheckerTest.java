package io.leaderpacer.simulator.controller;

import io.leaderpacer.engine.BalancerMemory;
import io.leaderpacer.engine.Election;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.PreferredLeaderBalancer;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.simulator.model.ClusterLayout;
import io.leaderpacer.simulator.model.LatencyClasses;
import io.leaderpacer.simulator.model.LeadershipGains;
import io.leaderpacer.simulator.model.ModelCluster;
import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import io.leaderpacer.simulator.sim.RandomStreams;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InvariantCheckerTest {

    private ClusterLayout layout;
    private ModelCluster cluster;
    private InvariantChecker checker;

    @BeforeEach
    void cluster() {
        Scenario s = new ScenarioLoader()
                .parse(
                        "t.yaml",
                        String.join(
                                "\n",
                                "name: t",
                                "cluster: {brokers: 3}",
                                "topics: [{name: t, partitions: 6, produceMBps: 6}]",
                                "timeline: {end: 10m, events: [{at: 2m, restart: {broker: 0, down: 1m}}]}",
                                ""));
        layout = ClusterLayout.of(s, new RandomStreams(1));
        LatencyClasses classes = new LatencyClasses(
                layout,
                new LeadershipGains(3, 30),
                () -> 0L,
                new boolean[layout.partitions],
                new boolean[layout.brokers]);
        cluster = new ModelCluster(layout, classes);
        classes.attachAll(cluster);
        checker = new InvariantChecker(layout, cluster);
    }

    @Test
    void steadyCluster_passes() {
        assertThatCode(() -> checker.checkPartitions(0)).doesNotThrowAnyException();
        assertThat(checker.checks()).isEqualTo(1);
    }

    @Test
    void leaderOutsideIsr_failsTheRun() {
        // Partition 0 is led by its first replica, broker 0; drop broker 0 from its ISR.
        cluster.setIsr(0, 0b110);
        assertThatThrownBy(() -> checker.checkPartitions(5))
                .isInstanceOf(InvariantViolation.class)
                .hasMessageContaining("at 5 ms")
                .hasMessageContaining("leader 0 outside the ISR");
    }

    @Test
    void fencedLeader_failsTheRun() {
        cluster.setBroker(0, false, true, false);
        assertThatThrownBy(() -> checker.checkPartition(0, 7)).hasMessageContaining("is fenced");
    }

    @Test
    void decisionOverTheCap_failsTheRun() {
        PacerConfig config = PacerConfig.defaults().with("leader.imbalance.election.max.per.run", "1");
        ElectionDecision real = PreferredLeaderBalancer.decide(cluster.snapshot(), config, BalancerMemory.empty(), 0);
        List<Election> two = new ArrayList<>();
        two.add(new Election(layout.ids[0], 0, 1, 0));
        two.add(new Election(layout.ids[1], 1, 2, 1));
        ElectionDecision forged =
                new ElectionDecision(0, config, two, true, 2, 0, 0, real.brokers(), real.nextMemory());
        assertThatThrownBy(() -> checker.checkDecision(forged, config, 0)).hasMessageContaining("cap is 1");
    }

    @Test
    void electionToReplicaOutsideIsr_failsTheRun() {
        PacerConfig config = PacerConfig.defaults();
        cluster.setIsr(0, 0b011);
        ElectionDecision real = PreferredLeaderBalancer.decide(cluster.snapshot(), config, BalancerMemory.empty(), 0);
        // Partition 0's replicas are 0, 1, 2; broker 2 is no longer in its ISR.
        ElectionDecision forged = new ElectionDecision(
                0,
                config,
                List.of(new Election(layout.ids[0], 0, 2, 0)),
                false,
                1,
                0,
                0,
                real.brokers(),
                real.nextMemory());
        assertThatThrownBy(() -> checker.checkDecision(forged, config, 0))
                .hasMessageContaining("not an active ISR member");
    }

    @Test
    void realDecision_passes() {
        PacerConfig config = PacerConfig.defaults();
        ElectionDecision d = PreferredLeaderBalancer.decide(cluster.snapshot(), config, BalancerMemory.empty(), 0);
        assertThatCode(() -> checker.checkDecision(d, config, 0)).doesNotThrowAnyException();
    }
}
