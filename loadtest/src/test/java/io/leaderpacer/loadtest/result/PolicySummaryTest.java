package io.leaderpacer.loadtest.result;

import io.leaderpacer.loadtest.load.View;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PolicySummaryTest {

    private static LoadTestResult result(List<RoundResult> rounds) {
        return new LoadTestResult(List.of("settings"), true, "immediate", rounds);
    }

    @Test
    void criteria_areJudgedOnTheMedianRound_andTimeoutsOnEveryRound() {
        LoadTestResult r = result(List.of(
                Rounds.round("immediate", 1, 40, 80, 0, 20_000L, 19_000, 0.25),
                Rounds.round("kip-example-scaled", 1, 12, 12, 0, 30_000L, 19_000, 0.25),
                Rounds.round("immediate", 2, 50, 90, 3, 22_000L, 19_000, 0.25),
                Rounds.round("kip-example-scaled", 2, 14, 30, 0, 50_000L, 19_000, 0.25),
                Rounds.round("immediate", 3, 45, 85, 0, 24_000L, 19_000, 0.25),
                Rounds.round("kip-example-scaled", 3, 16, 14, 0, 40_000L, 19_000, 0.25)));

        PolicySummary immediate = r.summaries().get(0);
        PolicySummary gated = r.summaries().get(1);
        assertThat(immediate.policy()).isEqualTo("immediate");
        assertThat(immediate.p99Ratio(View.ALL).median()).isEqualTo(4.5);
        assertThat(immediate.p99Pass()).isFalse();
        assertThat(immediate.timeoutsPass()).isFalse();
        assertThat(immediate.recoveryRatio()).isEqualTo(1.0);
        assertThat(gated.p99Ratio(View.ALL).median()).isEqualTo(1.4);
        assertThat(gated.p99Pass()).isTrue();
        assertThat(gated.p99Ratio(View.PROTECTED).median()).isEqualTo(1.4);
        assertThat(gated.timeoutsPass()).isTrue();
        assertThat(gated.recoverySeconds().median()).isEqualTo(40.0);
        assertThat(gated.recoveryRatio()).isCloseTo(40.0 / 22.0, Offset.offset(1e-9));
        assertThat(gated.recoveryPass()).isTrue();
    }

    @Test
    void aRoundThatNeverRecovered_failsTheRecoveryCriterion() {
        LoadTestResult r = result(List.of(
                Rounds.round("immediate", 1, 40, 80, 0, 20_000L, 19_000, 0.25),
                Rounds.round("kip-example-scaled", 1, 12, 12, 0, null, 19_000, 0.25)));

        assertThat(r.summaries().get(1).recoveryPass()).isFalse();
        assertThat(r.summaries().get(1).unrecoveredRounds()).isEqualTo(1);
    }

    @Test
    void findings_sayWhenTheRoundsOverlap_andWhenTheBrokerWasNotSaturated() {
        LoadTestResult overlap = result(List.of(
                Rounds.round("immediate", 1, 40, 20, 0, 20_000L, 19_000, 0.10),
                Rounds.round("kip-example-scaled", 1, 12, 25, 0, 30_000L, 19_000, 0.10),
                Rounds.round("immediate", 2, 40, 30, 0, 20_000L, 19_000, 0.10),
                Rounds.round("kip-example-scaled", 2, 12, 15, 0, 30_000L, 19_000, 0.10)));

        List<String> f = Findings.of(overlap);
        assertThat(f).anyMatch(s -> s.contains("not saturated"));
        assertThat(f).anyMatch(s -> s.contains("the ranges of the rounds overlap"));

        LoadTestResult unsaturated = new LoadTestResult(List.of(), false, "immediate", overlap.rounds());
        // The steady reference comes first; the saturation finding follows it, before any policy's figures.
        assertThat(Findings.of(unsaturated).get(1)).contains("cannot show whether the gate protects producers");
    }

    @Test
    void roundTable_andCsv_haveOneRowPerRound_asWideAsTheirHeaders() {
        LoadTestResult r = result(List.of(
                Rounds.round("immediate", 1, 40, 80, 0, 20_000L, 19_000, 0.25),
                Rounds.round("kip-example-scaled", 1, 12, 12, 0, 30_000L, 19_000, 0.25)));

        assertThat(LoadTestTable.roundRows(r))
                .hasSize(2)
                .allMatch(row -> row.size() == LoadTestTable.ROUND_HEADER.size());
        assertThat(LoadTestTable.policyRows(r)).allMatch(row -> row.size() == LoadTestTable.POLICY_HEADER.size());
        String[] csv = CsvFiles.rounds(r).split("\n");
        assertThat(csv).hasSize(3);
        assertThat(csv[1].split(",", -1)).hasSameSizeAs(csv[0].split(",", -1));
    }

    @Test
    void withoutBaselineRounds_recoveryCriterionIsNotApplicable_unlessARoundDidNotRecover() {
        LoadTestResult variants = result(List.of(
                Rounds.round("kip-example-scaled", 1, 12, 12, 0, 60_000L, 15_000, 0.5),
                Rounds.round(
                        "kip-example-scaled:leader.imbalance.election.max.per.run=15",
                        1,
                        12,
                        12,
                        0,
                        35_000L,
                        15_000,
                        0.5),
                Rounds.round(
                        "kip-example-scaled:leader.imbalance.election.max.per.run=1",
                        1,
                        12,
                        12,
                        0,
                        null,
                        15_000,
                        0.5)));

        List<PolicySummary> s = variants.summaries();
        assertThat(s.get(0).recoveryJudged()).isFalse();
        assertThat(s.get(1).recoveryJudged()).isFalse();
        assertThat(s.get(2).recoveryJudged())
                .as("a round that never recovered fails with or without a baseline")
                .isTrue();
        assertThat(s.get(2).recoveryPass()).isFalse();
        List<List<String>> rows = LoadTestTable.policyRows(variants);
        int last = LoadTestTable.POLICY_HEADER.indexOf("recovery <= 2x");
        assertThat(rows.get(0).get(last)).isEqualTo("n/a (no immediate rounds)");
        assertThat(rows.get(1).get(last)).isEqualTo("n/a (no immediate rounds)");
        assertThat(rows.get(2).get(last)).isEqualTo("FAIL");
    }
}
