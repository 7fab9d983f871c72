package io.leaderpacer.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChartPageTest {

    private static ChartPage sample() {
        double[] x = {0, 10, 20};
        return ChartPage.builder("Demo <report>")
                .section("Numbers & charts")
                .paragraph("a < b")
                .table(List.of("policy", "p99"), List.of(List.of("baseline", "12.5")))
                .chart(ChartPage.Chart.of("P99", "ms", x, List.of(new ChartPage.Series("baseline", new double[] {
                            1, Double.NaN, 3
                        })))
                        .withLogScale())
                .build();
    }

    @Test
    void page_inlinesUplotAndEscapesText() {
        String html = sample().toHtml();
        assertThat(html).contains("uPlot").contains(".uplot").doesNotContain("<script src=");
        assertThat(html)
                .contains("<title>Demo &lt;report&gt;</title>")
                .contains("<p>a &lt; b</p>")
                .contains("<h2>Numbers &amp; charts</h2>")
                .contains("<td>baseline</td>");
        assertThat(html).contains("[1,null,3]").contains("drawChart(\"chart0\"");
    }

    @Test
    void sameContent_sameBytes() {
        assertThat(sample().toHtml()).isEqualTo(sample().toHtml());
    }

    @Test
    void seriesOfWrongLength_isRefused() {
        assertThatThrownBy(() -> ChartPage.Chart.of(
                        "c", "y", new double[] {0, 1}, List.of(new ChartPage.Series("s", new double[] {1}))))
                .hasMessageContaining("series 's' has 1 values for 2 x values");
    }

    @Test
    void rowOfWrongWidth_isRefused() {
        assertThatThrownBy(() -> ChartPage.builder("t").table(List.of("a", "b"), List.of(List.of("1"))))
                .hasMessageContaining("1 cells for 2 columns");
    }

    @Test
    void writeTo_leavesOnlyTheFinishedFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("sub").resolve("page.html");
        sample().writeTo(file);
        assertThat(Files.readString(file)).isEqualTo(sample().toHtml());
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
    }
}
