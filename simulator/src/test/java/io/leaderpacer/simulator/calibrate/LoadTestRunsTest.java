package io.leaderpacer.simulator.calibrate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadTestRunsTest {

    @Test
    void shippedRun_givesSixRoundsWithTheirTimeline() {
        List<MeasuredRound> rounds =
                LoadTestRuns.read(List.of(Path.of("..", "docs", "evidence", "run2-producer-per-leader")));
        assertThat(rounds).hasSize(6);
        MeasuredRound first = rounds.get(0);
        assertThat(first.policy()).isEqualTo("immediate");
        assertThat(first.reentry().lastSeconds()).isEqualTo(44.990);
        assertThat(first.timeline().gateReleaseSeconds()).isNaN();
        assertThat(rounds.get(1).timeline().gateReleaseSeconds()).isEqualTo(20.237);
        assertThat(first.reentry().preferred()).isEqualTo(101);
    }

    @Test
    void roundsRecordedAsWaitForSync_readAsTheScaledExample_theirOverridesKept() {
        List<MeasuredRound> run2 =
                LoadTestRuns.read(List.of(Path.of("..", "docs", "evidence", "run2-producer-per-leader")));
        assertThat(run2).extracting(MeasuredRound::policy).containsOnly("immediate", "kip-example-scaled");
        List<MeasuredRound> run4 = LoadTestRuns.read(List.of(Path.of("..", "docs", "evidence", "run4-recovery-speed")));
        assertThat(run4)
                .extracting(MeasuredRound::policy)
                .allMatch(p -> p.equals("immediate") || p.startsWith("kip-example-scaled"))
                .anyMatch(p -> p.startsWith("kip-example-scaled:"));
    }

    @Test
    void catchUpOfARoundRecordedAsWaitForSync_isOfTheScaledExample(@TempDir Path dir) throws IOException {
        long mib = 1 << 20;
        Files.writeString(
                dir.resolve("rounds.csv"), "policy,round,restarted_at_s,unfenced_at_s\nwait-for-sync,1,10,12\n");
        Files.writeString(
                dir.resolve("partitions.csv"),
                "policy,round,at_s,hosted_bytes,bytes_behind\n"
                        + "wait-for-sync,1,12," + 40 * mib + "," + 80 * mib + "\n"
                        + "wait-for-sync,1,14," + 120 * mib + ",0\n");
        assertThat(MeasuredCatchUp.read(dir))
                .singleElement()
                .satisfies(r -> assertThat(r.policy()).isEqualTo("kip-example-scaled"));
    }

    @Test
    void directoryWithoutRoundsCsv_isNamedInTheError(@TempDir Path dir) {
        assertThatThrownBy(() -> LoadTestRuns.read(List.of(dir)))
                .hasMessageContaining(dir.resolve("rounds.csv").toString())
                .hasMessageContaining("no such file");
    }

    @Test
    void missingColumn_isNamed(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("rounds.csv"), "policy,round\nimmediate,1\n");
        assertThatThrownBy(() -> LoadTestRuns.read(List.of(dir))).hasMessageContaining("no column 'steady_p99_ms'");
    }
}
