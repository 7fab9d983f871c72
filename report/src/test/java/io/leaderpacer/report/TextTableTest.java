package io.leaderpacer.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextTableTest {

    private static final List<String> HEADER = List.of("policy", "P99 ms", "verdict");
    private static final List<List<String>> ROWS =
            List.of(List.of("baseline", "12.5", "FAIL"), List.of("wait-for-sync", "3", "PASS"));

    @Test
    void leftAligned_padsEveryColumn_withoutTrailingSpaces() {
        assertThat(TextTable.of(HEADER, ROWS).text())
                .isEqualTo(String.join(
                        "\n",
                        "policy         P99 ms  verdict",
                        "-------------  ------  -------",
                        "baseline       12.5    FAIL",
                        "wait-for-sync  3       PASS",
                        ""));
    }

    @Test
    void numbersRight_keepsTheFirstColumnLeft() {
        assertThat(TextTable.of(HEADER, ROWS).numbersRight().text())
                .isEqualTo(String.join(
                        "\n",
                        "policy         P99 ms  verdict",
                        "-------------  ------  -------",
                        "baseline         12.5     FAIL",
                        "wait-for-sync       3     PASS",
                        ""));
    }

    @Test
    void markdown_marksRightAlignedColumns() {
        assertThat(TextTable.of(HEADER, ROWS).markdown())
                .startsWith("| policy | P99 ms | verdict |\n|---|---|---|\n")
                .endsWith("| wait-for-sync | 3 | PASS |\n");
        assertThat(TextTable.of(HEADER, ROWS).numbersRight().markdown()).contains("\n|---|---:|---:|\n");
    }

    @Test
    void rowOfWrongWidth_isRefused() {
        assertThatThrownBy(() -> TextTable.of(HEADER, List.of(List.of("a"))))
                .hasMessageContaining("1 cells for 3 columns");
    }
}
