package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.steady.WarmUpOutcome;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The findings and the verdict must agree with the run's absolute figures. The case is the demo run that misled: its
 * first round ({@code immediate}) had a 3 s stall in its steady phase right after the warm-up, so its own steady P99
 * read 584.7 ms against 65.7 ms in the {@code kip-example-scaled} round (then called wait-for-sync); divided by their own steady phases, the ratios
 * called it five times worse although its window P99 was a third of {@code immediate}'s.
 */
class FindingsTest {

    /** Window P99 ms: all sends 10,789 / 3,336; protected 4,477 / 3,076. Steady windows of 5 s per round. */
    private static LoadTestResult pollutedFirstRound(int roundsEach) {
        List<RoundResult> rounds = new ArrayList<>();
        for (int n = 1; n <= roundsEach; n++) {
            List<Double> immediateWindows =
                    n == 1 ? List.of(60.0, 3000.0, 70.0, 65.0) : List.of(64.0, 61.0, 70.0, 66.0);
            rounds.add(Rounds.round(
                    "immediate", n, 10_789, 4_477, 0, 34_500L, 34_500, 0.5, n == 1 ? 584.7 : 66.0, immediateWindows));
            rounds.add(Rounds.round(
                    "kip-example-scaled",
                    n,
                    3_336,
                    3_076,
                    0,
                    61_000L,
                    11_900,
                    0.5,
                    65.7,
                    List.of(64.0, 66.0, 70.0, 62.0)));
        }
        return new LoadTestResult(List.of("settings"), true, "immediate", rounds);
    }

    @Test
    void pollutedSteadyPhaseInTheFirstRound_doesNotInvertTheComparison() {
        List<String> findings = Findings.of(pollutedFirstRound(1));

        String comparison = findings.stream()
                .filter(f -> f.startsWith("kip-example-scaled against immediate"))
                .findFirst()
                .orElseThrow();
        assertThat(comparison)
                .contains("window P99 of all sends 3.3 s against 10.8 s (lower, 0.31×")
                .contains("window P99 of the protected partitions 3.1 s against 4.5 s (lower, 0.69×")
                .doesNotContain("higher");
    }

    @Test
    void pollutedSteadyPhase_isFlagged_andTheReferenceIsTheMedianOfEveryWindow() {
        LoadTestResult result = pollutedFirstRound(1);
        SteadyReference reference = result.steadyReference();

        // windows 60, 3000, 70, 65 and 64, 66, 70, 62: median (65 + 66) / 2
        assertThat(reference.p99Ms(View.ALL)).isEqualTo(65.5);
        assertThat(reference.flagged(result.rounds().get(0))).isTrue();
        assertThat(reference.flagged(result.rounds().get(1))).isFalse();
        assertThat(Findings.of(result))
                .anySatisfy(f -> assertThat(f)
                        .startsWith("Round 1 of immediate: its own steady"
                                + " P99 was 584.7 ms, 8.9× the steady reference"));
        assertThat(LoadTestTable.roundRows(result).get(0).get(2)).contains("disturbed");
        assertThat(LoadTestTable.roundRows(result).get(1).get(2)).doesNotContain("disturbed");
    }

    @Test
    void ratios_divideByThePooledReference_notByTheRoundsOwnSteadyPhase() {
        List<PolicySummary> s = pollutedFirstRound(1).summaries();

        assertThat(s.get(0).p99Ratio(View.ALL).median()).isCloseTo(10_789 / 65.5, Offset.offset(1e-9));
        assertThat(s.get(1).p99Ratio(View.ALL).median()).isCloseTo(3_336 / 65.5, Offset.offset(1e-9));
    }

    @Test
    void oneRoundPerPolicy_saysItCannotShowASpread_andPointsToTheLoadTest() {
        assertThat(Findings.of(pollutedFirstRound(1)))
                .anySatisfy(f -> assertThat(f)
                        .contains("one round per policy cannot show a spread")
                        .contains("pacer loadtest"));
        assertThat(Findings.of(pollutedFirstRound(3)))
                .noneSatisfy(f -> assertThat(f).contains("one round per policy cannot show a spread"));
    }

    @Test
    void verdict_isOnePlainSentence_thatAgreesWithTheAbsoluteFigures() {
        List<String> verdict = VerdictSentences.sentences(pollutedFirstRound(1));

        assertThat(verdict)
                .singleElement()
                .asString()
                .startsWith(
                        "Under kip-example-scaled the restarted broker caught up in 11.9 s instead of 34.5 s and led its"
                                + " partitions again after 61.0 s instead of 34.5 s, and producers' P99 was 3.3 s instead of"
                                + " 10.8 s (in one round each); neither is near the steady 66 ms; the slowest writes went, under"
                                + " kip-example-scaled to the partitions where it was back in the ISR")
                .endsWith(".");
    }

    @Test
    void slowestWritesInDifferentRoles_areNamedPerPolicy() {
        // Paced: its writes to the partitions the restarted broker led were the slow ones (the return of leadership);
        // immediate: those that waited for it as an in-sync follower.
        RoundResult immediate = Rounds.withRoleP99(
                Rounds.round("immediate", 1, 8000, 6000, 0, 33_000L, 32_000, 0.5),
                Map.of(View.IN_SYNC_FOLLOWER, 7800.0, View.LEADER, 1900.0, View.NOT_IN_ISR, 5500.0));
        RoundResult paced = Rounds.withRoleP99(
                Rounds.round("paced", 1, 700, 1700, 0, 86_000L, 85_000, 0.25),
                Map.of(View.IN_SYNC_FOLLOWER, 180.0, View.LEADER, 2400.0, View.NOT_IN_ISR, 300.0));
        LoadTestResult result = new LoadTestResult(List.of(), true, "immediate", List.of(immediate, paced));

        assertThat(VerdictSentences.sentences(result))
                .singleElement()
                .asString()
                .contains("under paced to the partitions the restarted broker led (P99 2.4 s)")
                .contains("under immediate to those where it was back in the ISR")
                .contains("(P99 7.8 s)");
    }

    @Test
    void slowestWritesOutsideTheIsr_areNotGivenACauseTheRunDidNotMeasure() {
        RoundResult immediate = Rounds.withRoleP99(
                Rounds.round("immediate", 1, 8000, 6000, 0, 33_000L, 32_000, 0.5),
                Map.of(View.IN_SYNC_FOLLOWER, 7800.0));
        RoundResult paced = Rounds.withRoleP99(
                Rounds.round("paced", 1, 6300, 470, 0, 120_000L, 118_000, 0.2),
                Map.of(View.IN_SYNC_FOLLOWER, 455.0, View.NOT_IN_ISR, 10_600.0));
        LoadTestResult result = new LoadTestResult(List.of(), true, "immediate", List.of(immediate, paced));

        assertThat(VerdictSentences.sentences(result))
                .singleElement()
                .asString()
                .contains(
                        "under paced to the partitions whose ISR it was not in when sent, which acks=all does not make"
                                + " wait for it (what held them, this run does not measure) (P99 10.6 s)")
                .doesNotContain("which did not wait for it");
    }

    @Test
    void policyNearTheSteadyState_isSaidToBe_andTheOtherIsNot() {
        LoadTestResult result = new LoadTestResult(
                List.of(),
                true,
                "immediate",
                List.of(
                        Rounds.round("immediate", 1, 400, 400, 0, 30_000L, 30_000, 0.5),
                        Rounds.round("paced", 1, 12, 12, 0, 50_000L, 45_000, 0.5)));

        assertThat(VerdictSentences.sentences(result))
                .singleElement()
                .asString()
                .contains("paced's is within 1.5× of the steady 10 ms, immediate's is not");
    }

    @Test
    void warmUpThatReachedItsLimit_isReportedFirst() {
        LoadTestResult r = pollutedFirstRound(1);
        LoadTestResult withWarmUp = new LoadTestResult(
                r.settingsLines(),
                true,
                r.baseline(),
                r.rounds(),
                Optional.of(new WarmUpOutcome(180_000, false, List.of(80.0, 400.0, 90.0))));

        assertThat(Findings.of(withWarmUp).get(0)).startsWith("The warm-up NOT steady at its limit of 180 s");
        assertThat(Findings.of(r).get(0)).startsWith("Steady reference:");
    }

    /**
     * Evidence run 12's one round at 15,000 partitions: every steady window disturbed (4.4-14 s) after a warm-up steady
     * at about 250 ms, and a window P99 of 6.2 s that read as 0.76× the reference and PASS.
     */
    private static LoadTestResult sharedDisturbance(double warmUpP99) {
        RoundResult immediate = Rounds.round(
                "immediate", 1, 6_210, 6_627, 0, 121_800L, 126_400, 0.41, 33_587, List.of(4_444.0, 8_180.0, 14_041.0));
        return new LoadTestResult(
                List.of("settings"),
                true,
                "immediate",
                List.of(immediate),
                Optional.of(new WarmUpOutcome(35_000, true, List.of(0.9 * warmUpP99, warmUpP99, 1.1 * warmUpP99))));
    }

    @Test
    void referenceFarAboveTheWarmUpsSteadyP99_voidsEveryRatioAndTheP99Verdict() {
        LoadTestResult result = sharedDisturbance(273);

        assertThat(Findings.of(result))
                .anySatisfy(f -> assertThat(f)
                        .startsWith("The steady reference (8.2 s) was"
                                + " 30.0× the P99 the warm-up ended steady at (273 ms)"));
        assertThat(LoadTestTable.policyRows(result).get(0)).contains("n/a (steady reference disturbed)");
        assertThat(VerdictSentences.sentences(result))
                .noneSatisfy(v -> assertThat(v).contains("against the steady"))
                .anySatisfy(v -> assertThat(v).contains("every round's steady phase was disturbed"));
    }

    @Test
    void referenceNearTheWarmUpsSteadyP99_keepsTheVerdict() {
        LoadTestResult result = sharedDisturbance(8_000);

        assertThat(result.disturbedReference()).isEmpty();
        assertThat(LoadTestTable.policyRows(result).get(0)).doesNotContain("n/a (steady reference disturbed)");
        assertThat(VerdictSentences.sentences(result))
                .anySatisfy(v -> assertThat(v).contains("against the steady 8.2 s"));
    }
}
