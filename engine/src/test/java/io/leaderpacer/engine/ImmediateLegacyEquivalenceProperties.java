package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.PacerConfig;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code immediate} makes exactly the legacy decisions ({@link LegacyPreferredBalancer}) over
 * random clusters, run after run as the elections are applied.
 */
class ImmediateLegacyEquivalenceProperties {

    @Provide
    Arbitrary<ClusterSnapshot> clusters() {
        return RandomClusters.clusters();
    }

    @Property
    void immediate_makesExactlyTheLegacyDecisions_runAfterRun(@ForAll("clusters") ClusterSnapshot start,
                                                               @ForAll @IntRange(min = 1, max = 30) int cap) {
        PacerConfig config = PacerConfigs.immediate(cap);
        ClusterSnapshot cluster = start;
        BalancerMemory memory = BalancerMemory.empty();
        for (int run = 0; run < 4; run++) {
            ElectionDecision d = PreferredLeaderBalancer.decide(cluster, config, memory, run * 10L);
            LegacyPreferredBalancer.Outcome legacy = LegacyPreferredBalancer.run(cluster, cap);

            assertThat(d.elections()).as("run %d", run).isEqualTo(legacy.elections());
            assertThat(d.moreWork()).as("run %d", run).isEqualTo(legacy.moreWork());
            memory = d.nextMemory();
            cluster = LeaderChanges.applyTo(cluster, d);
        }
    }
}
