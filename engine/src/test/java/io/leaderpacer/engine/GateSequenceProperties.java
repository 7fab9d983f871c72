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
 * and a random time has passed. The test keeps its own account of the clock and the clear-run
 * streak and checks every transition of the gate against DESIGN.md.
 */
class GateSequenceProperties {

    private static final int PARTITIONS = 20;

    /** One run: how many partitions are out of sync, whether broker 0 is up, time since the last run. */
    record Step(int outOfSync, boolean active, long elapsedMs) {
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Integer> outOfSync = Arbitraries.oneOf(Arbitraries.integers().between(0, PARTITIONS),
                Arbitraries.of(0, 1, 2));
        Arbitrary<Boolean> active = Arbitraries.integers().between(0, 4).map(i -> i != 0);
        Arbitrary<Long> elapsed = Arbitraries.oneOf(Arbitraries.of(10L, 15_000L, 300_000L),
                Arbitraries.longs().between(1, 900_000));
        return Combinators.combine(outOfSync, active, elapsed).as(Step::new).list().ofMinSize(1).ofMaxSize(40);
    }

    @Provide
    Arbitrary<PacerConfig> gateConfigs() {
        return Combinators.combine(Arbitraries.of("0", "5", "10", "25", "50"), Arbitraries.of("0", "600000", "1800000"),
                        Arbitraries.of("while-active", "wall"), Arbitraries.of("all-preferred", "imbalanced-only"))
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
    void gateTransitions_followHysteresisAndMaxWait(@ForAll("steps") List<Step> steps,
                                                    @ForAll("gateConfigs") PacerConfig config) {
        boolean wall = config.maxWaitClock() == MaxWaitClock.WALL;
        BalancerMemory memory = BalancerMemory.empty();
        GatePhase prev = GatePhase.OPEN;
        boolean prevActive = false;
        long now = 0;
        long prevRun = 0;
        long episodeStart = -1;
        long clock = 0;
        int clearStreak = 0;

        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            now += s.elapsedMs();
            boolean over = s.outOfSync() * 100.0 > config.thresholdPercent() * PARTITIONS;
            clearStreak = over ? 0 : clearStreak + 1;

            ElectionDecision d = PreferredLeaderBalancer.decide(cluster(s), config, memory, now);
            BrokerGateReport r = d.broker(0);
            GatePhase phase = r.phase();
            String at = "run " + i + " " + s + " after " + prev + ", clock " + clock;

            // The test's own max-wait clock for the episode in progress (it stops at the escape).
            if (prev == GatePhase.GATED) {
                clock = wall ? now - episodeStart : clock + (prevActive && s.active() ? now - prevRun : 0);
            }

            switch (prev) {
                case OPEN -> {
                    if (over && (s.active() || wall)) {
                        assertThat(phase).as("a not-gated broker is gated at once: " + at).isEqualTo(GatePhase.GATED);
                        episodeStart = now;
                        clock = 0;
                    } else {
                        assertThat(phase).as(at).isEqualTo(GatePhase.OPEN);
                    }
                }
                case GATED -> {
                    if (!over) {
                        assertThat(phase).as("release only after 2 clear runs: " + at)
                                .isEqualTo(clearStreak >= 2 ? GatePhase.OPEN : GatePhase.GATED);
                    } else if (config.maxWaitMs() > 0 && clock >= config.maxWaitMs()) {
                        assertThat(phase).as("max-wait escape: " + at).isEqualTo(GatePhase.ESCAPED);
                    } else {
                        assertThat(phase).as("still gated: " + at).isEqualTo(GatePhase.GATED);
                    }
                }
                case ESCAPED -> {
                    if (!over) {
                        assertThat(phase).as("passes on its own: " + at).isEqualTo(GatePhase.OPEN);
                    } else if (!s.active() && !wall) {
                        assertThat(phase).as("a restart after an escape is a new recovery: " + at)
                                .isEqualTo(GatePhase.OPEN);
                    } else {
                        assertThat(phase).as("stays released: " + at).isEqualTo(GatePhase.ESCAPED);
                    }
                }
                default -> throw new AssertionError(at);
            }
            if (phase == GatePhase.GATED || phase == GatePhase.ESCAPED) {
                assertThat(r.gatedActiveMs()).as("max-wait clock: " + at).isEqualTo(clock);
                assertThat(r.episodeStartMs()).as(at).isEqualTo(episodeStart);
            }
            if (phase == GatePhase.GATED && over && config.maxWaitMs() > 0) {
                assertThat(clock).as("never gated past max-wait while over: " + at).isLessThan(config.maxWaitMs());
            }
            if (phase == GatePhase.GATED) {
                assertThat(d.elections()).as("a gated broker receives nothing: " + at).isEmpty();
            } else if (s.active()) {
                assertThat(d.electionsTo(0)).as(at).isEqualTo(PARTITIONS - s.outOfSync());
            }

            prev = phase;
            prevActive = s.active();
            prevRun = now;
            memory = d.nextMemory();
        }
    }
}
