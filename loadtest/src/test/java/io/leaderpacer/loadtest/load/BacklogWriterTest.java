package io.leaderpacer.loadtest.load;

import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class BacklogWriterTest {

    @Test
    void spread_addsUpToTheBacklog_andIsTheSameForTheSameSeed() {
        long bytes = 1L << 30;
        int[] a = BacklogWriter.recordsPerPartition(240, bytes, 1.0, 42);
        int[] b = BacklogWriter.recordsPerPartition(240, bytes, 1.0, 42);

        assertThat(a).isEqualTo(b);
        long total = Arrays.stream(a).asLongStream().sum() * BacklogWriter.RECORD_BYTES;
        assertThat((double) total).isCloseTo(bytes, Percentage.withPercentage(1));
        assertThat(Arrays.stream(a).min().orElseThrow()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void sigmaOne_isSkewed_andSigmaZero_isEven() {
        int[] skewed = BacklogWriter.recordsPerPartition(240, 1L << 30, 1.0, 7);
        int[] even = BacklogWriter.recordsPerPartition(240, 1L << 30, 0.0, 7);

        assertThat(Arrays.stream(skewed).max().orElseThrow())
                .isGreaterThan(10 * Arrays.stream(skewed).min().orElseThrow());
        assertThat(Arrays.stream(even).max().orElseThrow()
                        - Arrays.stream(even).min().orElseThrow())
                .isLessThanOrEqualTo(1);
    }
}
