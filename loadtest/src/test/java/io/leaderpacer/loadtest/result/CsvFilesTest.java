package io.leaderpacer.loadtest.result;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CsvFilesTest {

    @Test
    void policyWithSettings_staysOneCell_andEveryRowHasTheHeadersColumns() {
        String policy =
                "wait-for-sync:leader.imbalance.election.max.per.run=15,leader.imbalance.election.throttle.interval.ms=1000";
        LoadTestResult result = new LoadTestResult(
                List.of("settings"),
                true,
                "immediate",
                List.of(
                        Rounds.round("immediate", 1, 100, 90, 0, 30_000L, 28_000, 0.5),
                        Rounds.round(policy, 1, 50, 40, 0, 40_000L, 15_000, 0.5)));
        String[] lines = CsvFiles.rounds(result).split("\n");
        int columns = lines[0].split(",", -1).length;
        assertThat(lines).hasSize(3);
        assertThat(lines[1].split(",", -1)).hasSize(columns).startsWith("immediate", "1");
        // The policy is the one cell that holds commas: quoted, and after it the row has the header's other columns.
        String quoted = '"' + policy + '"';
        assertThat(lines[2]).startsWith(quoted + ",1,");
        assertThat(lines[2].substring(quoted.length() + 1).split(",", -1)).hasSize(columns - 1);
    }
}
