package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.GatePhase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineCsvTest {

    private static final RecoveryRun RUN = new RecoveryRun("wait-for-sync", "", 1, 4_000, List.of(
            new TimelineSample(1_000, false, 100, 100, GatePhase.GATED, 0, 0, 0, Double.NaN, 0),
            new TimelineSample(9_000, true, 3, 100, GatePhase.OPEN, 40, 20, 20, 12.3456, 210)), 5.0, 100);

    @Test
    void lines_holdOneRowPerSampleWithThePolicyAndRestartTime() {
        List<String> lines = TimelineCsv.lines(List.of(RUN));

        assertThat(lines).containsExactly(TimelineCsv.HEADER,
                "wait-for-sync,1000,4000,false,100,100,GATED,0,0,0,,0",
                "wait-for-sync,9000,4000,true,3,100,OPEN,40,20,20,12.346,210");
    }

    @Test
    void write_createsTheDirectoryAndLeavesNoTemporaryFile(@TempDir Path dir) throws Exception {
        Path file = TimelineCsv.write(dir.resolve("out"), List.of(RUN));

        assertThat(Files.readAllLines(file)).hasSize(3);
        try (var listing = Files.list(dir.resolve("out"))) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactly("timeline.csv");
        }
    }
}
