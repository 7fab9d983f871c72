package io.leaderpacer.agent.coordination;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HandoverSummaryTest {

    @Test
    void summary_survivesItsJsonForm() {
        HandoverSummary s = HandoverSummary.fresh("a", "host-1").afterElections(1_000, true, 20_000);
        assertThat(HandoverSummary.parse(s.toJson())).contains(s);
    }

    @Test
    void cappedRun_holdsTheSuccessorUntilTheThrottleIntervalAfterIt() {
        assertThat(HandoverSummary.fresh("a", "h")
                        .afterElections(1_000, true, 20_000)
                        .nextRunNotBeforeMs())
                .isEqualTo(21_000);
    }

    @Test
    void runThatWasNotCapped_orNoElectionsYet_holdsTheSuccessorNot() {
        assertThat(HandoverSummary.fresh("a", "h")
                        .afterElections(1_000, false, 300_000)
                        .nextRunNotBeforeMs())
                .isZero();
        assertThat(HandoverSummary.fresh("a", "h").nextRunNotBeforeMs()).isZero();
    }

    @Test
    void successor_inheritsThePacingButNamesItself() {
        HandoverSummary before = HandoverSummary.fresh("a", "h1").afterElections(5_000, true, 10_000);
        HandoverSummary mine = HandoverSummary.fresh("b", "h2").inheriting(before);
        assertThat(mine.instance()).isEqualTo("b");
        assertThat(mine.host()).isEqualTo("h2");
        assertThat(mine.nextRunNotBeforeMs()).isEqualTo(15_000);
    }

    @Test
    void metadataThatIsNoSummary_readsAsNone() {
        assertThat(HandoverSummary.parse(null)).isEmpty();
        assertThat(HandoverSummary.parse("")).isEmpty();
        assertThat(HandoverSummary.parse("committed by a tool")).isEmpty();
        assertThat(HandoverSummary.parse("{\"host\":\"h\"}")).isEmpty();
        assertThat(HandoverSummary.parse("{\"instance\":\"a\",\"host\":\"h\",\"lastElectionMs\":\"soon\"}"))
                .isEmpty();
    }

    @Test
    void summaryOfALongInstanceId_staysWithinKafkasOffsetMetadataLimit() {
        HandoverSummary s = HandoverSummary.fresh("x".repeat(200), "h".repeat(255))
                .afterElections(Long.MAX_VALUE, true, Long.MAX_VALUE);
        assertThat(s.toJson().length()).isLessThan(4096);
    }
}
