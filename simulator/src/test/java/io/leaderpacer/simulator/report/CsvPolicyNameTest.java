package io.leaderpacer.simulator.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A policy named {@code NAME:a=1,b=2} stays one CSV field, and the summary merge keys it whole. */
class CsvPolicyNameTest {

    private static String brokerLine(String policy) {
        String text =
                SimulationFiles.BROKERS.text(List.of(new BrokerRow(new SimulationKey("s", policy, 7), "0", 1, 2, 2)));
        return text.lines().skip(1).findFirst().orElseThrow();
    }

    @Test
    void nameWithAComma_isQuoted_andOtherNamesAreNot() {
        assertThat(brokerLine("kip-example")).startsWith("s,kip-example,7,");
        assertThat(brokerLine("recommended:a=1,b=2")).startsWith("s,\"recommended:a=1,b=2\",7,");
        assertThat(brokerLine("say \"x\", y")).startsWith("s,\"say \"\"x\"\", y\",7,");
    }

    @Test
    void summaryKey_isScenarioPolicyAndSeed_withAQuotedPolicy() {
        List<SummaryRow> rows = List.of(row("recommended:a=1,b=2"), row("immediate"));
        String text = SimulationFiles.SUMMARY.text(rows);
        assertThat(text).contains("\ns,\"recommended:a=1,b=2\",7,").contains("\ns,immediate,7,");

        assertThat(SummaryMerge.readIfCompatible("summary.csv", text).orElseThrow())
                .extracting(SummaryRow::key)
                .containsExactly(
                        new SimulationKey("s", "recommended:a=1,b=2", 7), new SimulationKey("s", "immediate", 7));
    }

    private static SummaryRow row(String policy) {
        return new SummaryRow(
                new SimulationKey("s", policy, 7),
                new SummaryRow.Kip(1.0, 2.0, 2.0, 0, 10, 1),
                new SummaryRow.Controller(1, 1, 1, 1, 0, 0),
                new SummaryRow.Checks(false, true, true, "FAIL", 1),
                new SummaryRow.Classes(1, 1, null, Double.NaN),
                new SummaryRow.Limits(1, 1, Double.NaN));
    }
}
