package io.leaderpacer.loadtest.observe;

import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.leaderpacer.engine.pacing.PacingPhase;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class PacingLogTest {

    @Test
    void aLook_keepsTheRestartedBrokersRate_andWhatTheLookChangedInTheThrottles() {
        long[] now = {1_000};
        PacingLog log = new PacingLog(1, () -> now[0]);
        BrokerPacing paced = new BrokerPacing(
                1,
                PacingPhase.CAUGHT_UP_GRACE,
                OptionalLong.of(20L << 20),
                "down within",
                BrokerPacing.Progress.UNKNOWN);

        log.accept(new PacingReport(
                1_000,
                List.of(paced),
                List.of("topic t follower list + 0:1,1:1", "cluster default follower rate 20.0 MiB/s"),
                List.of(),
                Optional.empty()));
        now[0] = 3_000;
        log.accept(new PacingReport(3_000, List.of(), List.of(), List.of(), Optional.empty()));

        assertThat(log.samples())
                .containsExactly(
                        new PacingSample(
                                1_000,
                                20L << 20,
                                -1,
                                "down within",
                                "",
                                "topic t follower list + 0:1,1:1; cluster default follower rate 20.0 MiB/s"),
                        new PacingSample(3_000, -1, -1, "not paced", "", ""));
    }
}
