package io.leaderpacer.simulator.report;

import io.leaderpacer.simulator.run.KipAcceptance;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FrontierTest {

    /** A point as a simulation would give it, judged against a baseline that recovered in 10 s. */
    private static Frontier.Point point(String policy, double p99Ratio, double recoveryS, long timeouts) {
        double recoveryRatio = Double.isNaN(recoveryS) ? Double.NaN : recoveryS / 10.0;
        KipAcceptance a = new KipAcceptance(
                p99Ratio,
                recoveryRatio,
                p99Ratio <= KipAcceptance.MAX_P99_RATIO,
                timeouts == 0,
                !Double.isNaN(recoveryS) && recoveryRatio <= KipAcceptance.MAX_RECOVERY_RATIO);
        return new Frontier.Point(policy, p99Ratio, recoveryS, recoveryRatio, timeouts, a, false);
    }

    @Test
    void aPolicyWorseOnBothThanAnother_isOffTheFrontier_theTradeOffsOnIt_fastestFirst() {
        List<Frontier.Point> marked = Frontier.marked(List.of(
                point("slow-and-spiky", 3.0, 40.0, 0),
                point("immediate", 40.0, 10.0, 0),
                point("paced-16m", 1.2, 60.0, 0),
                point("paced-64m", 2.0, 25.0, 0)));

        assertThat(marked)
                .extracting(Frontier.Point::policy)
                .containsExactly("immediate", "paced-64m", "slow-and-spiky", "paced-16m");
        assertThat(marked).extracting(Frontier.Point::onFrontier).containsExactly(true, true, false, true);
    }

    @Test
    void equalOnP99AndRecovery_fewerTimeOutsWins_andANeverRecoveredPolicyIsLastAndBeatenByAnyAsGoodOnP99() {
        List<Frontier.Point> marked = Frontier.marked(List.of(
                point("never", 1.1, Double.NaN, 0),
                point("with-time-outs", 1.1, 15.0, 3),
                point("clean", 1.1, 15.0, 0)));

        assertThat(marked).extracting(Frontier.Point::policy).containsExactly("with-time-outs", "clean", "never");
        assertThat(marked).extracting(Frontier.Point::onFrontier).containsExactly(false, true, false);
        assertThat(marked.get(2).verdict()).isEqualTo("misses recovery");
        assertThat(marked.get(0).verdict()).isEqualTo("misses time-outs");
    }

    @Test
    void twoPointsThatPrintAlike_neitherBeatsTheOther() {
        List<Frontier.Point> marked =
                Frontier.marked(List.of(point("a", 2.7912, 116.81, 0), point("b", 2.7899, 116.79, 0)));

        assertThat(marked).allMatch(Frontier.Point::onFrontier);
    }

    @Test
    void twoIdenticalPoints_bothStayOnTheFrontier() {
        List<Frontier.Point> marked = Frontier.marked(List.of(point("a", 1.4, 20.0, 0), point("b", 1.4, 20.0, 0)));

        assertThat(marked).allMatch(Frontier.Point::onFrontier);
    }

    @Test
    void text_marksTheFrontier_andNamesTheFastestWithinTheKipsP99() {
        String text = Frontier.text(Frontier.marked(List.of(
                point("immediate", 40.0, 10.0, 0),
                point("paced-64m", 1.4, 25.0, 0),
                point("paced-16m", 1.1, 60.0, 0))));

        assertThat(text)
                .contains("modelled")
                .containsPattern("\\* immediate +40\\.00 +10\\.0 s +1\\.00 +0  misses P99")
                .containsPattern("\\* paced-64m +1\\.40 +25\\.0 s +2\\.50 +0  misses recovery")
                .contains("fastest within KIP-1358's 1.5x P99 and without time-outs: paced-64m, back after 25.0 s"
                        + " (2.50x immediate)");
    }

    @Test
    void text_whenNoPolicyKeepsTheP99_saysSo() {
        String text = Frontier.text(Frontier.marked(List.of(point("immediate", 40.0, 10.0, 0))));

        assertThat(text).contains("no policy here keeps P99 within KIP-1358's 1.5x without time-outs");
    }

    @Test
    void staticRatePolicy_isTheSweptPresetWithTheAgentsOwnKeys() {
        assertThat(Frontier.staticRatePolicy(16_777_216))
                .isEqualTo("recommended-paced:leader.imbalance.catch.up.pacing=static,"
                        + "leader.imbalance.catch.up.pacing.rate.bytes=16777216");
    }
}
