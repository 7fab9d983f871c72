package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.MaxWaitClock;
import io.leaderpacer.engine.config.PacerConfig;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hysteresis and max-wait over random ISR sequences: broker 0 prefers {@value #PARTITIONS}
 * partitions; each run a random number of them is out of its ISR, the broker is up or fenced,
 * and a random time has passed. The test keeps its own account of the episode (its start, the
 * clear-run streak) and checks every transition of the gate against docs/DESIGN-NOTES.md: hysteresis, the
 * max-wait escape on every run of an episode (clear runs included), and a restart ending an episode.
 */
class GateSequenceProperties {

    private static final int PARTITIONS = 20;

    /** One run: how many partitions are out of sync, whether broker 0 is up, time since the last run. */
    record Step(int outOfSync, boolean active, long elapsedMs) {}

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Integer> outOfSync =
                Arbitraries.oneOf(Arbitraries.integers().between(0, PARTITIONS), Arbitraries.of(0, 1, 2));
        Arbitrary<Boolean> active = Arbitraries.integers().between(0, 4).map(i -> i != 0);
        Arbitrary<Long> elapsed = Arbitraries.oneOf(
                Arbitraries.of(10L, 15_000L, 300_000L), Arbitraries.longs().between(1, 900_000));
        return Combinators.combine(outOfSync, active, elapsed)
                .as(Step::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(40);
    }

    @Provide
    Arbitrary<PacerConfig> gateConfigs() {
        return Combinators.combine(
                        Arbitraries.of("0", "5", "10", "25", "50"),
                        Arbitraries.of("0", "600000", "1800000"),
                        Arbitraries.of("while-active", "wall"),
                        Arbitraries.of("all-preferred", "imbalanced-only"))
                .as((threshold, maxWait, clock, denominator) -> PacerConfig.fromMap(Map.of(
                        ConfigKey.ALGORITHM.key(), "wait-for-sync",
                        ConfigKey.THRESHOLD_PERCENT.key(), threshold,
                        ConfigKey.MAX_WAIT_MS.key(), maxWait,
                        ConfigKey.MAX_WAIT_CLOCK.key(), clock,
                        ConfigKey.GATE_DENOMINATOR.key(), denominator)));
    }

    private static ClusterSnapshot cluster(Step s) {
        RecoveryClusterBuilder b = RecoveryClusterBuilder.brokers(0, 1, 2, 3).preferredBy(0, PARTITIONS, s.outOfSync());
        return (s.active() ? b : b.fenced(0)).build();
    }

    @Property
    void gateTransitions_followHysteresisMaxWaitAndRestarts(
            @ForAll("steps") List<Step> steps, @ForAll("gateConfigs") PacerConfig config) {
        boolean wall = config.maxWaitClock() == MaxWaitClock.WALL;
        long maxWait = config.maxWaitMs();
        BalancerMemory memory = BalancerMemory.empty();
        // The test's own account of docs/DESIGN-NOTES.md's episode: none, GATED or ESCAPED, its start and clear streak.
        GatePhase episode = null;
        long episodeStart = -1;
        int clear = 0;
        long now = 0;

        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            now += s.elapsedMs();
            boolean over = s.outOfSync() * 100.0 > config.thresholdPercent() * PARTITIONS;
            String at = "run " + i + " " + s + " in episode " + episode + " since " + episodeStart + ", clear " + clear;

            GatePhase expected;
            if (!s.active() && !wall) {
                expected = GatePhase.INACTIVE; // a restart ends an episode
                episode = null;
            } else if (episode == null) {
                if (over) {
                    expected = GatePhase.GATED;
                    episode = GatePhase.GATED;
                    episodeStart = now;
                    clear = 0;
                } else {
                    expected = s.active() ? GatePhase.OPEN : GatePhase.INACTIVE;
                }
            } else {
                boolean ranOut = maxWait > 0 && now - episodeStart >= maxWait;
                if (episode == GatePhase.ESCAPED) {
                    expected = over ? GatePhase.ESCAPED : (s.active() ? GatePhase.OPEN : GatePhase.INACTIVE);
                } else if (over) {
                    expected = ranOut ? GatePhase.ESCAPED : GatePhase.GATED;
                    clear = 0;
                } else {
                    clear++;
                    // the escape is decided on clear runs too: released either way
                    expected =
                            clear >= 2 || ranOut ? (s.active() ? GatePhase.OPEN : GatePhase.INACTIVE) : GatePhase.GATED;
                }
                episode = expected == GatePhase.GATED || expected == GatePhase.ESCAPED ? expected : null;
            }

            ElectionDecision d = PreferredLeaderBalancer.decide(cluster(s), config, memory, now);
            BrokerGateReport r = d.broker(0);
            assertThat(r.verdict().phase()).as(at).isEqualTo(expected);
            if (episode != null) {
                assertThat(r.verdict().episodeStartMs()).as(at).isEqualTo(episodeStart);
                assertThat(r.verdict().gatedActiveMs())
                        .as("max-wait clock: " + at)
                        .isEqualTo(now - episodeStart);
            }
            if (expected == GatePhase.GATED && maxWait > 0) {
                assertThat(now - episodeStart)
                        .as("never gated past max-wait: " + at)
                        .isLessThan(maxWait);
            }
            assertThat(d.gatedBrokerCount()).as(at).isEqualTo(expected == GatePhase.GATED ? 1 : 0);
            if (expected == GatePhase.GATED || !s.active()) {
                assertThat(d.electionsTo(0))
                        .as("a gated or inactive broker receives nothing: " + at)
                        .isZero();
            } else {
                assertThat(d.electionsTo(0)).as(at).isEqualTo(PARTITIONS - s.outOfSync());
            }
            memory = d.nextMemory();
        }
    }
}
