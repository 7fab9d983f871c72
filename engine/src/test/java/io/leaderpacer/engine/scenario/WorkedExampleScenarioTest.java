package io.leaderpacer.engine.scenario;

import io.leaderpacer.engine.GatePhase;
import io.leaderpacer.engine.cluster.BrokerState;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.policy.PolicyRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * KIP-1358's worked example at engine level: a replaced broker that is the preferred replica of
 * 5,000 partitions rejoins; {@code wait-for-sync}, threshold 5 %, {@code max.per.run} 200,
 * throttle 15 s, check interval 300 s (default), max-wait 30 min (default).
 *
 * <p>Broker 0 is the replaced broker; brokers 1-3 lead its partitions meanwhile and also prefer
 * 1,000 balanced partitions each, which must never move.
 */
class WorkedExampleScenarioTest {

    private static final int PREFERRED = 5_000;
    private static final long SECOND = 1_000;
    private static final long CHECK_INTERVAL = 300 * SECOND;
    private static final long THROTTLE = 15 * SECOND;

    /** The registry's kip-example (threshold 5 %, max-wait 30 min, 200 per 15 s) with the given gate denominator. */
    private static PacerConfig kipExample(String denominator) {
        Map<String, String> settings =
                new HashMap<>(PolicyRegistry.named(PolicyRegistry.KIP_EXAMPLE).settingsByKey(0));
        settings.put(ConfigKey.GATE_DENOMINATOR.key(), denominator);
        return PacerConfig.fromMap(settings);
    }

    /**
     * Broker 0's 5,000 partitions, out of its ISR at first and led by a follower, followed by the
     * other brokers' balanced partitions; {@code rejoin} gives each of broker 0's partitions its
     * ISR re-entry time.
     */
    private static ScriptedRecovery recovery(PacerConfig config, IntToLongFunction rejoin) {
        List<PartitionState> partitions = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < PREFERRED; i++) {
            int a = 1 + i % 3;
            int b = 1 + (i + 1) % 3;
            partitions.add(PartitionState.of("orders", i, new int[] {0, a, b}, new int[] {a, b}, a));
            times.add(rejoin.applyAsLong(i));
        }
        for (int broker = 1; broker <= 3; broker++) {
            int a = 1 + broker % 3;
            int b = 1 + (broker + 1) % 3;
            for (int i = 0; i < 1_000; i++) {
                partitions.add(PartitionState.of(
                        "balanced-" + broker, i, new int[] {broker, a, b, 0}, new int[] {broker, a, b}, broker));
                times.add(ScriptedRecovery.NEVER);
            }
        }
        List<BrokerState> brokers =
                List.of(BrokerState.active(0), BrokerState.active(1), BrokerState.active(2), BrokerState.active(3));
        return new ScriptedRecovery(
                brokers, partitions, times.stream().mapToLong(Long::longValue).toArray(), config, 0);
    }

    /**
     * Staggered re-entry: by the run at 900 s all but 251 partitions are back, one more at 1000 s
     * (250 = exactly 5 % out at the 1200 s run), and the last 250 stragglers at 1600 s, half-way
     * through the ramp.
     */
    private static long staggered(int i) {
        if (i < 4_749) {
            return (i + 1) * 180L;
        }
        return i == 4_749 ? 1_000 * SECOND : 1_600 * SECOND;
    }

    @Test
    void kipExample_noLeadershipWhileMoreThan250OutOfIsr() {
        List<ScriptedRecovery.Run> runs = recovery(kipExample("all-preferred"), WorkedExampleScenarioTest::staggered)
                .runUntil(1_500 * SECOND);

        assertThat(runs)
                .extracting(ScriptedRecovery.Run::atMs)
                .containsExactly(0L, 300 * SECOND, 600 * SECOND, 900 * SECOND, 1_200 * SECOND);
        assertThat(runs).extracting(r -> r.outOfSync(0)).containsExactly(5_000L, 3_334L, 1_667L, 251L, 250L);
        for (ScriptedRecovery.Run r : runs) {
            assertThat(r.decision().isGated(0)).as("gated at %d ms", r.atMs()).isTrue();
            assertThat(r.decision().elections())
                    .as("no leadership at %d ms", r.atMs())
                    .isEmpty();
            assertThat(r.decision().skippedByGate()).isEqualTo(PREFERRED - r.outOfSync(0));
            assertThat(r.decision().broker(0).partitions().outOfSync()).isEqualTo(r.outOfSync(0));
        }
        ScriptedRecovery.Run atThreshold = runs.get(4);
        assertThat(atThreshold.decision().broker(0).verdict().clearRuns())
                .as("250 = 5 %% is clear, hysteresis holds it")
                .isEqualTo(1);
    }

    @Test
    void kipExample_afterReleaseBatchesOf200ExactlyEvery15Seconds() {
        List<ScriptedRecovery.Run> runs = recovery(kipExample("all-preferred"), WorkedExampleScenarioTest::staggered)
                .runUntil(2_500 * SECOND);
        List<ScriptedRecovery.Run> batches =
                runs.stream().filter(r -> r.elections() > 0).collect(Collectors.toList());

        assertThat(batches).hasSize(PREFERRED / 200);
        assertThat(batches.get(0).atMs()).as("released after two clear runs").isEqualTo(1_500 * SECOND);
        for (int i = 0; i < batches.size(); i++) {
            ScriptedRecovery.Run b = batches.get(i);
            assertThat(b.elections()).as("batch %d", i).isEqualTo(200);
            assertThat(b.decision().electionsTo(0)).isEqualTo(200);
            assertThat(b.decision().isGated(0)).isFalse();
            if (i > 0) {
                assertThat(b.atMs() - batches.get(i - 1).atMs())
                        .as("spacing before batch %d", i)
                        .isEqualTo(THROTTLE);
            }
        }
        // Before the stragglers rejoin at 1600 s, the cap defers the rest of the 4,750 in-sync partitions.
        assertThat(batches.get(0).decision().deferredByThrottle()).isEqualTo(4_750 - 200);
    }

    @Test
    void kipExample_rampTakesAboutSixAndAQuarterMinutes() {
        ScriptedRecovery recovery = recovery(kipExample("all-preferred"), WorkedExampleScenarioTest::staggered);
        List<ScriptedRecovery.Run> runs = recovery.runUntil(2_500 * SECOND);
        ScriptedRecovery.Run first =
                runs.stream().filter(r -> r.elections() > 0).findFirst().orElseThrow();
        ScriptedRecovery.Run last =
                runs.stream().filter(r -> r.elections() > 0).reduce((a, b) -> b).orElseThrow();
        ScriptedRecovery.Run settled = runs.get(runs.indexOf(last) + 1);

        long kipEstimate = PREFERRED / 200 * THROTTLE;
        assertThat(kipEstimate).isEqualTo(375 * SECOND);
        // 25 batches 15 s apart, then the empty run that confirms the cap was not hit again.
        assertThat(last.atMs() - first.atMs()).isEqualTo(24 * THROTTLE);
        assertThat(settled.elections()).isZero();
        assertThat(settled.atMs() - first.atMs()).isCloseTo(kipEstimate, within(THROTTLE));
        assertThat(settled.decision().moreWork()).isFalse();
        assertThat(settled.decision().nextRunDelayMs()).isEqualTo(CHECK_INTERVAL);
        assertThat(recovery.ledByPreferred(0)).isEqualTo(PREFERRED);
        assertThat(settled.decision().imbalancedCount()).isZero();
    }

    @Test
    void kipExample_balancedPartitionsOfOtherBrokersNeverMove() {
        List<ScriptedRecovery.Run> runs = recovery(kipExample("all-preferred"), WorkedExampleScenarioTest::staggered)
                .runUntil(2_500 * SECOND);

        assertThat(runs)
                .flatExtracting(r -> r.decision().elections())
                .allSatisfy(e -> assertThat(e.partition().topic()).isEqualTo("orders"));
    }

    /** 100 stragglers that never rejoin (2 % of 5,000); the rest are back by 882 s. */
    private static long hundredStragglers(int i) {
        return i < 4_900 ? (i + 1) * 180L : ScriptedRecovery.NEVER;
    }

    @Test
    void defaultDenominator_fewStragglers_rampRunsThroughWithoutRegating() {
        ScriptedRecovery recovery = recovery(kipExample("all-preferred"), WorkedExampleScenarioTest::hundredStragglers);
        List<ScriptedRecovery.Run> runs = recovery.runUntil(2_000 * SECOND);
        List<ScriptedRecovery.Run> afterRelease =
                runs.stream().filter(r -> r.atMs() >= 1_200 * SECOND).collect(Collectors.toList());

        assertThat(afterRelease.get(0).atMs()).isEqualTo(1_200 * SECOND);
        assertThat(afterRelease)
                .allSatisfy(r -> assertThat(r.decision().isGated(0))
                        .as("at %d", r.atMs())
                        .isFalse());
        assertThat(recovery.ledByPreferred(0)).isEqualTo(4_900);
        ScriptedRecovery.Run last =
                runs.stream().filter(r -> r.elections() > 0).reduce((a, b) -> b).orElseThrow();
        assertThat(last.atMs()).isEqualTo(1_200 * SECOND + 24 * THROTTLE);
        assertThat(last.elections()).isEqualTo(100);
    }

    @Test
    void literalDenominator_fewStragglers_regatesMidRamp() {
        ScriptedRecovery recovery =
                recovery(kipExample("imbalanced-only"), WorkedExampleScenarioTest::hundredStragglers);
        List<ScriptedRecovery.Run> runs = recovery.runUntil(2_000 * SECOND);

        // Released at 1200 s like the default; after 16 batches 1,800 partitions are left of which
        // the 100 stragglers are 5.6 %: the shrinking denominator puts the broker back behind the gate.
        ScriptedRecovery.Run regated = runs.stream()
                .filter(r -> r.atMs() > 1_200 * SECOND && r.decision().isGated(0))
                .findFirst()
                .orElseThrow();
        assertThat(regated.atMs()).isEqualTo(1_200 * SECOND + 16 * THROTTLE);
        assertThat(regated.decision().broker(0).ratio().numerator()).isEqualTo(100);
        assertThat(regated.decision().broker(0).ratio().denominator()).isEqualTo(1_800);
        assertThat(regated.decision().broker(0).verdict().phase()).isEqualTo(GatePhase.GATED);
        assertThat(regated.elections()).isZero();
        assertThat(regated.decision().nextRunDelayMs())
                .as("gated, not capped: back to the check interval")
                .isEqualTo(CHECK_INTERVAL);
        assertThat(recovery.ledByPreferred(0))
                .as("stuck at 16 batches while the default finished")
                .isEqualTo(3_200);
    }

    @Test
    void literalDenominator_regatedBroker_isFreedByMaxWaitAndFinishes() {
        ScriptedRecovery recovery =
                recovery(kipExample("imbalanced-only"), WorkedExampleScenarioTest::hundredStragglers);
        List<ScriptedRecovery.Run> runs = recovery.runUntil(4_000 * SECOND);

        long regatedAt = 1_200 * SECOND + 16 * THROTTLE;
        ScriptedRecovery.Run escape = runs.stream()
                .filter(r -> r.decision().broker(0).verdict().phase() == GatePhase.ESCAPED)
                .findFirst()
                .orElseThrow();
        assertThat(escape.atMs()).isEqualTo(regatedAt + 1_800 * SECOND);
        assertThat(runs)
                .filteredOn(r -> r.atMs() > regatedAt && r.atMs() < escape.atMs())
                .allSatisfy(r -> assertThat(r.elections()).isZero());
        assertThat(recovery.ledByPreferred(0)).isEqualTo(4_900);
    }

    @Test
    void twoBrokersRejoiningTogether_shareEveryCappedRunEqually() {
        // Brokers 0 and 1 both prefer 5,000 partitions, followers 2-4 lead meanwhile.
        List<PartitionState> partitions = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < 2 * PREFERRED; i++) {
            int preferred = i % 2;
            int a = 2 + i % 3;
            int b = 2 + (i + 1) % 3;
            partitions.add(PartitionState.of("orders", i, new int[] {preferred, a, b}, new int[] {a, b}, a));
            times.add((i / 2 + 1) * 180L);
        }
        List<BrokerState> brokers = new ArrayList<>();
        for (int id = 0; id < 5; id++) {
            brokers.add(BrokerState.active(id));
        }
        ScriptedRecovery recovery = new ScriptedRecovery(
                brokers,
                partitions,
                times.stream().mapToLong(Long::longValue).toArray(),
                kipExample("all-preferred"),
                0);

        List<ScriptedRecovery.Run> capped = recovery.runUntil(3_000 * SECOND).stream()
                .filter(r -> r.decision().moreWork())
                .collect(Collectors.toList());

        assertThat(capped).hasSize(2 * PREFERRED / 200);
        for (ScriptedRecovery.Run r : capped) {
            assertThat(r.decision().electionsTo(0)).as("at %d", r.atMs()).isCloseTo(100L, within(1L));
            assertThat(r.decision().electionsTo(1)).as("at %d", r.atMs()).isCloseTo(100L, within(1L));
        }
        assertThat(recovery.ledByPreferred(0)).isEqualTo(PREFERRED);
        assertThat(recovery.ledByPreferred(1)).isEqualTo(PREFERRED);
    }
}
