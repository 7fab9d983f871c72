package io.leaderpacer.loadtest;

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
        assertThatThrownBy(() -> ByteSize.parse("0")).hasMessageContaining("out of range");
    }
}
