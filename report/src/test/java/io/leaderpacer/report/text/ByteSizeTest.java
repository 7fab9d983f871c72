package io.leaderpacer.report.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ByteSizeTest {

    @Test
    void binaryUnits_inEveryUsualSpelling() {
        assertThat(ByteSize.parse("1g")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("512MiB")).isEqualTo(512L << 20);
        assertThat(ByteSize.parse("64m")).isEqualTo(64L << 20);
        assertThat(ByteSize.parse("1.5k")).isEqualTo(1536);
        assertThat(ByteSize.parse("4096")).isEqualTo(4096);
    }

    @Test
    void notASize_orZero_isRejectedWithWhatIsAccepted() {
        assertThatThrownBy(() -> ByteSize.parse("lots")).hasMessageContaining("'lots' is not a size");
        assertThatThrownBy(() -> ByteSize.parsePositive("0")).hasMessageContaining("out of range");
    }

    @Test
    void sizes_parseWithTheirUnits() {
        // "MB" is 2^20 like "m" and "MiB" (the JVM's and Kafka's count); it was 10^6 in scenario files before.
        assertThat(ByteSize.parse("200MB")).isEqualTo(200L << 20);
        assertThat(ByteSize.parse("1.5 KiB")).isEqualTo(1536);
        assertThat(ByteSize.parse("4096B")).isEqualTo(4096);
    }

    @Test
    void everySpellingOfAUnit_meansTheSame() {
        for (String unit : new String[] {"g", "G", "gb", "GB", "gib", "GiB"}) {
            assertThat(ByteSize.parse("2" + unit)).as(unit).isEqualTo(2L << 30);
        }
        assertThat(ByteSize.parse("1t")).isEqualTo(1L << 40);
        assertThat(ByteSize.parse("0")).isZero();
    }

    @Test
    void unitWithoutPrefix_orBeyondOnePiB_isRefused() {
        assertThatThrownBy(() -> ByteSize.parse("5ib")).hasMessageContaining("not a size");
        assertThatThrownBy(() -> ByteSize.parse("2p")).hasMessageContaining("not a size");
        assertThatThrownBy(() -> ByteSize.parse("1025t"))
                .hasMessageContaining("out of range: between 0 bytes and 1 PiB");
        assertThatThrownBy(() -> ByteSize.parse("x\n1g")).hasMessageContaining("'x\\n1g'");
    }
}
