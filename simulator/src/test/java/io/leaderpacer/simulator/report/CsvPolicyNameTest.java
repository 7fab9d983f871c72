package io.leaderpacer.simulator.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A policy named {@code NAME:a=1,b=2} stays one CSV field, and the summary merge keys it whole. */
class CsvPolicyNameTest {

    @Test
    void nameWithAComma_isQuoted_andOtherNamesAreNot() {
        assertThat(CsvWriter.field("kip-example")).isEqualTo("kip-example");
        assertThat(CsvWriter.field("recommended:a=1,b=2")).isEqualTo("\"recommended:a=1,b=2\"");
        assertThat(CsvWriter.field("say \"x\", y")).isEqualTo("\"say \"\"x\"\", y\"");
    }

    @Test
    void summaryKey_isScenarioPolicyAndSeed_withAQuotedPolicy() {
        assertThat(SummaryMerge.key("s,\"recommended:a=1,b=2\",7,1.0,2.0")).isEqualTo("s,\"recommended:a=1,b=2\",7");
        assertThat(SummaryMerge.key("s,immediate,7,1.0")).isEqualTo("s,immediate,7");
    }
}
