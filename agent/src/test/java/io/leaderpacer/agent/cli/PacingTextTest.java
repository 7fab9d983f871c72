package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.core.CatchUpQuota;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.engine.config.PacerConfig;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingPhase;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class PacingTextTest {

    private static final long MIB = 1L << 20;

    @Test
    void recoveringBroker_showsABarOfWhatIsFetched_theRate_andWhenItIsBackInEveryIsr() {
        BrokerPacing b = new BrokerPacing(
                1,
                PacingPhase.PACED,
                OptionalLong.of(20 * MIB),
                "canary P99 1.9x steady, over 1.5x: rate cut to 20.0 MiB/s",
                new BrokerPacing.Progress(
                        OptionalLong.of(600 * MIB),
                        OptionalLong.of(800 * MIB),
                        OptionalDouble.of(20 * MIB),
                        OptionalLong.of(30_000)));

        assertThat(PacingText.line(b, Optional.empty()))
                .isEqualTo(
                        "broker 1  [#####...............]  25%  20.0 MiB/s  600 MiB behind,"
                                + " 20.0 MiB/s, back in every ISR in ~30 s  canary P99 1.9x steady, over 1.5x: rate cut to 20.0 MiB/s");
    }

    @Test
    void underProduceLoad_showsTheRateDecided_whatPacingSets_andWhatTheCatchUpFetched() {
        BrokerPacing b = new BrokerPacing(
                1,
                PacingPhase.PACED,
                OptionalLong.of(20 * MIB),
                "static 20.0 MiB/s",
                new BrokerPacing.Progress(
                        OptionalLong.of(600 * MIB),
                        OptionalLong.of(800 * MIB),
                        OptionalDouble.of(12 * MIB),
                        OptionalLong.of(50_000),
                        OptionalDouble.of(19.8 * MIB)));

        assertThat(PacingText.line(b, Optional.of(new CatchUpQuota(20 * MIB, 24 * MIB, 4 * MIB))))
                .isEqualTo("broker 1  [#####...............]  25%  20.0 MiB/s decided, 24.0 MiB/s set (4.0 MiB/s of"
                        + " it in-sync bytes Kafka counts on the same quota), 19.8 MiB/s fetched  600 MiB behind,"
                        + " 12.0 MiB/s, back in every ISR in ~50 s  static 20.0 MiB/s");
    }

    @Test
    void downBroker_hasNoBarYet_andPlanSaysWhatItWouldChange() {
        BrokerPacing b = new BrokerPacing(
                2,
                PacingPhase.PACED,
                OptionalLong.of(20 * MIB),
                "down: throttle at 20.0 MiB/s in place for its return",
                BrokerPacing.Progress.UNKNOWN);
        StringWriter text = new StringWriter();
        PacingText.print(
                new PrintWriter(text),
                PacerConfig.fromMap(Map.of("leader.imbalance.catch.up.pacing", "static"))
                        .pacing(),
                new PacingReport(
                        0,
                        List.of(b),
                        List.of("the cluster-default follower rate -> 20.0 MiB/s"),
                        List.of(),
                        Optional.empty()),
                true);

        assertThat(text.toString())
                .isEqualTo("Catch-up pacing: static, from 20.0 MiB/s; what it would do now, as a newly"
                        + " active instance.\n  broker 2  20.0 MiB/s  down: throttle at 20.0 MiB/s in place for its return\n"
                        + "  would change: the cluster-default follower rate -> 20.0 MiB/s\n");
    }

    @Test
    void off_saysSoInOneLine() {
        StringWriter text = new StringWriter();
        PacingText.print(
                new PrintWriter(text),
                PacerConfig.defaults().pacing(),
                new PacingReport(0, List.of(), List.of(), List.of(), Optional.empty()),
                true);

        assertThat(text.toString()).isEqualTo("Catch-up pacing: off (leader.imbalance.catch.up.pacing=off).\n");
    }
}
