package io.leaderpacer.engine;

import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gaps KIP-1358 leaves open, as docs/DESIGN-NOTES.md decides them: a restart ends an episode (an
 * inactive broker has none, and a fresh one starts when it is back); after a max-wait escape the broker stays released until it passes the
 * gate on its own; the gate's memory is an explicit value and an empty one re-evaluates from
 * scratch.
 */
class GateEpisodeTest {

    private static final long RUN = 300_000;
    private static final long MAX_WAIT = 1_800_000;
    private static final PacerConfig CONFIG =
            PacerConfigs.with(PacerConfigs.waitForSync(5, 1000), ConfigKey.MAX_WAIT_MS, Long.toString(MAX_WAIT));
    private static final PacerConfig WALL_CLOCK = PacerConfigs.with(CONFIG, ConfigKey.MAX_WAIT_CLOCK, "wall");

    /** Broker 0 with 50 of 100 preferred partitions out of sync; fenced when {@code up} is false. */
    private static ClusterSnapshot stuck(boolean up) {
        RecoveryClusterBuilder b = RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 100, 50)
                .preferredBy(1, 10, 0);
        return (up ? b : b.fenced(0)).build();
    }

    private static ClusterSnapshot inSync() {
        return RecoveryClusterBuilder.brokers(0, 1, 2, 3).preferredBy(0, 100, 0).build();
    }

    /** Runs every {@link #RUN} ms from {@code from} (inclusive) to {@code to} (exclusive). */
    private static ElectionDecision runs(
            ClusterSnapshot cluster, PacerConfig config, BalancerMemory start, long from, long to) {
        BalancerMemory memory = start;
        ElectionDecision d = null;
        for (long t = from; t < to; t += RUN) {
            d = PreferredLeaderBalancer.decide(cluster, config, memory, t);
            memory = d.nextMemory();
        }
        return d;
    }

    @Test
    void brokerDownLongerThanMaxWait_hasNoEpisodeWhileDown_andAFreshOneWhenItComesBack() {
        // Gated for 5 minutes while up, then fenced for 40 minutes (longer than max-wait), then back.
        ElectionDecision beforeOutage = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 2 * RUN);
        ElectionDecision duringOutage = runs(stuck(false), CONFIG, beforeOutage.nextMemory(), 2 * RUN, 10 * RUN);
        ElectionDecision back =
                PreferredLeaderBalancer.decide(stuck(true), CONFIG, duringOutage.nextMemory(), 10 * RUN);

        assertThat(duringOutage.broker(0).verdict().phase())
                .as("a restart ends the episode")
                .isEqualTo(GatePhase.INACTIVE);
        assertThat(duringOutage.gatedBrokerCount()).isZero();
        assertThat(duringOutage.nextMemory().gate(0)).isNull();
        assertThat(back.broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(back.electionsTo(0)).isZero();
        assertThat(back.broker(0).verdict().episodeStartMs()).isEqualTo(10 * RUN);
        assertThat(back.broker(0).verdict().gatedActiveMs()).as("a fresh clock").isZero();
    }

    @Test
    void brokerBackFromOutage_escapesOnlyMaxWaitAfterItsReturn() {
        ElectionDecision beforeOutage = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 2 * RUN);
        ElectionDecision duringOutage = runs(stuck(false), CONFIG, beforeOutage.nextMemory(), 2 * RUN, 10 * RUN);
        // The time gated before the outage does not count: the whole max-wait runs from 10 * RUN.
        ElectionDecision lastGated = runs(stuck(true), CONFIG, duringOutage.nextMemory(), 10 * RUN, 16 * RUN);
        ElectionDecision escape = PreferredLeaderBalancer.decide(stuck(true), CONFIG, lastGated.nextMemory(), 16 * RUN);

        assertThat(lastGated.broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(lastGated.broker(0).verdict().gatedActiveMs()).isEqualTo(MAX_WAIT - RUN);
        assertThat(escape.broker(0).verdict().phase()).isEqualTo(GatePhase.ESCAPED);
        assertThat(escape.broker(0).verdict().episodeStartMs())
                .as("the episode started at its return")
                .isEqualTo(10 * RUN);
    }

    @Test
    void brokerDownFromTheStart_startsItsEpisodeWhenItComesBack() {
        ElectionDecision whileDown = runs(stuck(false), CONFIG, BalancerMemory.empty(), 0, 10 * RUN);
        ElectionDecision back = PreferredLeaderBalancer.decide(stuck(true), CONFIG, whileDown.nextMemory(), 10 * RUN);

        assertThat(whileDown.nextMemory().gate(0))
                .as("no episode while it cannot lead")
                .isNull();
        assertThat(back.broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(back.broker(0).verdict().episodeStartMs()).isEqualTo(10 * RUN);
        assertThat(back.broker(0).verdict().gatedActiveMs()).isZero();
    }

    @Test
    void wallClockVariant_brokerDownLongerThanMaxWait_escapesAsSoonAsItIsBack() {
        ElectionDecision whileDown = runs(stuck(false), WALL_CLOCK, BalancerMemory.empty(), 0, 10 * RUN);
        ElectionDecision back =
                PreferredLeaderBalancer.decide(stuck(true), WALL_CLOCK, whileDown.nextMemory(), 10 * RUN);

        assertThat(whileDown.nextMemory().gate(0))
                .as("the literal clock starts while down")
                .isNotNull();
        assertThat(whileDown.nextMemory().gate(0).episodeStartMs()).isZero();
        assertThat(back.broker(0).verdict().phase()).isEqualTo(GatePhase.ESCAPED);
        assertThat(back.electionsTo(0)).isEqualTo(50);
    }

    @Test
    void wallClockVariant_brokerUpAllAlong_escapesAtTheSameTimeAsTheDefault() {
        ElectionDecision wall = runs(stuck(true), WALL_CLOCK, BalancerMemory.empty(), 0, 7 * RUN);
        ElectionDecision whileActive = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 7 * RUN);

        assertThat(wall.broker(0).verdict().phase()).isEqualTo(GatePhase.ESCAPED);
        assertThat(whileActive.broker(0).verdict().phase()).isEqualTo(GatePhase.ESCAPED);
        assertThat(wall.elections()).isEqualTo(whileActive.elections());
    }

    @Test
    void afterMaxWaitEscape_brokerStaysReleasedWhileStillOverTheThreshold() {
        ElectionDecision escaped = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 7 * RUN);
        ElectionDecision later = runs(stuck(true), CONFIG, escaped.nextMemory(), 7 * RUN, 20 * RUN);

        assertThat(escaped.broker(0).verdict().phase()).isEqualTo(GatePhase.ESCAPED);
        assertThat(later.broker(0).verdict().phase())
                .as("no new 30-minute episode around a straggler")
                .isEqualTo(GatePhase.ESCAPED);
        assertThat(later.isGated(0)).isFalse();
        assertThat(later.electionsTo(0)).isEqualTo(50);
    }

    @Test
    void afterEscape_brokerThatPassesTheGateOnItsOwn_canStartANewEpisode() {
        ElectionDecision escaped = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 7 * RUN);
        ElectionDecision passes = PreferredLeaderBalancer.decide(inSync(), CONFIG, escaped.nextMemory(), 7 * RUN);
        ElectionDecision fallsBehind =
                PreferredLeaderBalancer.decide(stuck(true), CONFIG, passes.nextMemory(), 8 * RUN);

        assertThat(passes.broker(0).verdict().phase()).isEqualTo(GatePhase.OPEN);
        assertThat(passes.nextMemory().gate(0)).isNull();
        assertThat(fallsBehind.broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(fallsBehind.broker(0).verdict().episodeStartMs()).isEqualTo(8 * RUN);
        assertThat(fallsBehind.broker(0).verdict().gatedActiveMs()).isZero();
    }

    @Test
    void escapedBrokerThatGoesDown_forgetsItsEscapeAndIsGatedWhenBack() {
        // Judgement call documented in Gate: a restart after an escape is a new recovery.
        ElectionDecision escaped = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 7 * RUN);
        ElectionDecision down = PreferredLeaderBalancer.decide(stuck(false), CONFIG, escaped.nextMemory(), 7 * RUN);
        ElectionDecision back = PreferredLeaderBalancer.decide(stuck(true), CONFIG, down.nextMemory(), 8 * RUN);

        assertThat(down.nextMemory().gate(0)).isNull();
        assertThat(back.broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(back.broker(0).verdict().episodeStartMs()).isEqualTo(8 * RUN);
    }

    @Test
    void gateMemory_isAnExplicitValue_replayingTheSameMemoryGivesTheSameDecision() {
        ElectionDecision gated = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 3 * RUN);
        BalancerMemory memory = gated.nextMemory();

        ElectionDecision once = PreferredLeaderBalancer.decide(inSync(), CONFIG, memory, 3 * RUN);
        ElectionDecision again = PreferredLeaderBalancer.decide(inSync(), CONFIG, memory, 3 * RUN);

        assertThat(memory.gate(0).phase()).isEqualTo(GatePhase.GATED);
        assertThat(memory.gatedCount()).isEqualTo(1);
        assertThat(once).isEqualTo(again);
        assertThat(once.isGated(0)).as("hysteresis comes from the memory").isTrue();
    }

    @Test
    void emptyMemory_afterControllerFailover_reevaluatesFromScratch() {
        ElectionDecision gated = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 3 * RUN);

        ElectionDecision withMemory = PreferredLeaderBalancer.decide(inSync(), CONFIG, gated.nextMemory(), 3 * RUN);
        ElectionDecision afterFailover =
                PreferredLeaderBalancer.decide(inSync(), CONFIG, BalancerMemory.empty(), 3 * RUN);

        assertThat(withMemory.isGated(0)).isTrue();
        assertThat(afterFailover.isGated(0))
                .as("no hysteresis carried over a failover")
                .isFalse();
        assertThat(afterFailover.electionsTo(0)).isEqualTo(100);
    }

    @Test
    void emptyMemory_restartsTheMaxWaitClock() {
        ElectionDecision almostEscaped = runs(stuck(true), CONFIG, BalancerMemory.empty(), 0, 6 * RUN);
        ElectionDecision continued =
                PreferredLeaderBalancer.decide(stuck(true), CONFIG, almostEscaped.nextMemory(), 6 * RUN);
        ElectionDecision afterFailover =
                PreferredLeaderBalancer.decide(stuck(true), CONFIG, BalancerMemory.empty(), 6 * RUN);

        assertThat(continued.broker(0).verdict().phase()).isEqualTo(GatePhase.ESCAPED);
        assertThat(afterFailover.broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(afterFailover.broker(0).verdict().episodeStartMs()).isEqualTo(6 * RUN);
        assertThat(afterFailover.broker(0).verdict().gatedActiveMs()).isZero();
    }

    @Test
    void literalDenominator_countsOnlyImbalancedPartitions() {
        // Broker 0 prefers 10 partitions: leads 6 already, 4 imbalanced of which 1 out of sync.
        ClusterSnapshot cluster = RecoveryClusterBuilder.brokers(0, 1, 2, 3)
                .preferredBy(0, 4, 1)
                .balancedFor(0, 6)
                .build();
        PacerConfig byAllPreferred = PacerConfigs.waitForSync(20, 1000);
        PacerConfig literal = PacerConfigs.with(byAllPreferred, ConfigKey.GATE_DENOMINATOR, "imbalanced-only");

        ElectionDecision dflt = PreferredLeaderBalancer.decide(cluster, byAllPreferred, BalancerMemory.empty(), 0);
        ElectionDecision lit = PreferredLeaderBalancer.decide(cluster, literal, BalancerMemory.empty(), 0);

        assertThat(dflt.broker(0).ratio().numerator()).isEqualTo(1);
        assertThat(dflt.broker(0).ratio().denominator()).isEqualTo(10);
        assertThat(dflt.isGated(0)).as("1/10 = 10 percent, not over 20").isFalse();
        assertThat(dflt.electionsTo(0)).isEqualTo(3);
        assertThat(lit.broker(0).ratio().numerator()).isEqualTo(1);
        assertThat(lit.broker(0).ratio().denominator()).isEqualTo(4);
        assertThat(lit.isGated(0)).as("1/4 = 25 percent, over 20").isTrue();
        assertThat(lit.electionsTo(0)).isZero();
    }

    @Test
    void literalDenominator_brokerLeadingAllItsPartitions_isNeverGated() {
        ClusterSnapshot cluster =
                RecoveryClusterBuilder.brokers(0, 1, 2, 3).balancedFor(0, 10).build();
        PacerConfig literal =
                PacerConfigs.with(PacerConfigs.waitForSync(0, 1000), ConfigKey.GATE_DENOMINATOR, "imbalanced-only");

        ElectionDecision d = PreferredLeaderBalancer.decide(cluster, literal, BalancerMemory.empty(), 0);

        assertThat(d.broker(0).ratio().denominator()).isZero();
        assertThat(d.isGated(0)).isFalse();
    }
}
