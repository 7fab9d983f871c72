package io.leaderpacer.simulator.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryMergeTest {

    private static SummaryRow row(String scenario, String policy, long seed, double windowP99Ms) {
        return new SummaryRow(
                new SimulationKey(scenario, policy, seed),
                new SummaryRow.Kip(20.371, windowP99Ms, 15.5, 0, 622.6, 1.0),
                new SummaryRow.Controller(331, 334, 33, 235, 0, 0),
                new SummaryRow.Checks(false, true, true, "FAIL", 67),
                new SummaryRow.Classes(16.833, 15.31, 4, 19.88),
                new SummaryRow.Limits(Double.NaN, Double.NaN, Double.NaN));
    }

    @Test
    void rerunRows_replaceTheirEarlierOnes_otherRowsKeptInOrder() {
        List<SummaryRow> existing =
                List.of(row("a", "immediate", 1, 300), row("b", "immediate", 1, 310), row("a", "kip-example", 1, 320));
        List<SummaryRow> fresh = List.of(row("a", "immediate", 1, 301), row("a", "kip-example", 2, 330));

        assertThat(SummaryMerge.merge(existing, fresh))
                .containsExactly(
                        row("b", "immediate", 1, 310),
                        row("a", "kip-example", 1, 320),
                        row("a", "immediate", 1, 301),
                        row("a", "kip-example", 2, 330));
    }

    @Test
    void summaryWrittenByThisVersion_readsBack_andIsWrittenAgainByteForByte() {
        String text = SimulationFiles.SUMMARY.text(
                List.of(row("04-straggler", "immediate", 11, 317.006), row("04-straggler", "x:a=1,b=2", 11, 334.602)));

        Optional<List<SummaryRow>> read = SummaryMerge.readIfCompatible("summary.csv", text);

        assertThat(read).isPresent();
        assertThat(SimulationFiles.SUMMARY.text(read.get())).isEqualTo(text);
    }

    @Test
    void summaryInOtherColumns_isNotMerged() {
        assertThat(SummaryMerge.readIfCompatible("summary.csv", "scenario,policy,seed,p99\na,b,1,2\n"))
                .isEmpty();
    }
}
