package io.leaderpacer.report.csv;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvFormatTest {

    public record Name(String name, int n) {}

    public record Row(
            @JsonUnwrapped Name key,
            @JsonProperty("at_s") double atS,
            @JsonProperty("ratio") @Decimals(1) double ratio,
            @JsonProperty("bytes") Long bytes,
            boolean ok) {}

    public record Three(String first, String second, String third) {}

    private static final CsvFormat<Three> THREE = CsvFormat.of(Three.class, "first", "second", "third");

    private static final CsvFormat<Row> FORMAT = CsvFormat.of(Row.class, "name", "n", "at_s", "ratio", "bytes", "ok");

    @Test
    void rows_areWrittenInTheFormatsColumnOrder_withFixedDecimals_andEmptyCellsForUnknowns() {
        String text = FORMAT.text(List.of(
                new Row(new Name("a", 1), 2.5, 1.25, 1024L, true),
                new Row(new Name("b", 2), Double.NaN, Double.NaN, null, false)));

        assertThat(text).isEqualTo("name,n,at_s,ratio,bytes,ok\na,1,2.500,1.3,1024,true\nb,2,,,,false\n");
    }

    @Test
    void textCell_isQuotedOnlyWhenItMust_whateverItsLength() {
        String longName = "kip-example-scaled-with-a-name-longer-than-twenty-four-characters";
        String text = FORMAT.text(List.of(
                new Row(new Name(longName, 1), 0, 0, 0L, true),
                new Row(new Name("x:a=1,b=2", 1), 0, 0, 0L, true),
                new Row(new Name("say \"x\"", 1), 0, 0, 0L, true),
                new Row(new Name("cgroup v1 cpu.cfs_quota_us", 1), 0, 0, 0L, true)));

        assertThat(text.lines().skip(1).map(l -> l.substring(0, l.indexOf(",1,"))))
                .containsExactly(longName, "\"x:a=1,b=2\"", "\"say \"\"x\"\"\"", "cgroup v1 cpu.cfs_quota_us");
    }

    @Test
    void writtenRows_readBackEqual() {
        List<Row> rows = List.of(
                new Row(new Name("x:a=1,b=2", 1), 2.5, 1.5, 1024L, true),
                new Row(new Name("say \"x\"", 2), Double.NaN, Double.NaN, null, false));

        assertThat(FORMAT.parse("f.csv", FORMAT.text(rows), List.of()).rows()).isEqualTo(rows);
    }

    @Test
    void fileWithOtherColumnsAndWithoutSome_readsByName_theMissingOnesEmpty() {
        CsvContent<Row> read = FORMAT.parse("f.csv", "n,extra,name,at_s\n3,zz,a,1.5\n\n", List.of("name"));

        assertThat(read.rows()).containsExactly(new Row(new Name("a", 3), 1.5, Double.NaN, null, false));
        assertThat(read.has("extra")).isTrue();
        assertThat(read.has("ratio")).isFalse();
    }

    @Test
    void missingNeededColumn_isNamedWithTheFile() {
        assertThatThrownBy(() -> FORMAT.parse("f.csv", "name,n\na,1\n", List.of("at_s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("f.csv: no column 'at_s' in the header");
    }

    @Test
    void cellThatIsNotANumber_isNamedWithFileLineAndColumn() {
        assertThatThrownBy(() -> FORMAT.parse("f.csv", "name,n,at_s\na,1,2\nb,2,soon\n", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("f.csv line 3: ")
                .hasMessageContaining("at_s")
                .hasMessageContaining("soon");
    }

    @Test
    void lineWithTooFewOrTooManyCells_isAnErrorNamingItsLine() {
        assertThatThrownBy(() -> FORMAT.parse("f.csv", "name,n,at_s\na,1\n", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("f.csv line 2: ");
        assertThatThrownBy(() -> FORMAT.parse("f.csv", "name,n,at_s\na,1,2,3\n", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("f.csv line 2: ");
    }

    @Test
    void emptyText_isAnError() {
        assertThatThrownBy(() -> FORMAT.parse("f.csv", "", List.of())).hasMessage("f.csv: empty");
    }

    @Test
    void formatWhoseColumnsAreNotTheRowsProperties_isRefused() {
        assertThatThrownBy(() -> CsvFormat.of(Row.class, "name", "n", "at_s", "ratio", "bytes"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ok");
    }

    @Test
    void quotedCellWithComma_staysOneCell() {
        assertThat(THREE.parse("f.csv", "first,second,third\na,\"b, c\",d\n", List.of())
                        .rows())
                .singleElement()
                .extracting(Three::first, Three::second, Three::third)
                .containsExactly("a", "b, c", "d");
    }

    @Test
    void doubledQuoteInQuotedCell_isOneQuote() {
        assertThat(THREE.parse("f.csv", "first,second\n\"say \"\"x\"\", then y\",2\n", List.of())
                        .rows())
                .singleElement()
                .extracting(Three::first, Three::second)
                .containsExactly("say \"x\", then y", "2");
    }

    @Test
    void columnsKnownWhenWritten_takeRowsOfCellsByName_aMissingCellEmpty() {
        CsvFormat<Map<String, String>> format = CsvFormat.ofColumns(List.of("policy", "time_s", "p99_ms"));

        String text = format.text(List.of(
                Map.of("policy", "a,b", "time_s", "0", "p99_ms", "1.500"), Map.of("policy", "c", "time_s", "5")));

        assertThat(text).isEqualTo("policy,time_s,p99_ms\n\"a,b\",0,1.500\nc,5,\n");
    }
}
