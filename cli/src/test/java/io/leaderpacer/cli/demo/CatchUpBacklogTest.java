package io.leaderpacer.cli.demo;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class CatchUpBacklogTest {

    @Test
    void backlog_addsUpToTheRequestedSize() {
        int[] counts = CatchUpBacklog.recordsPerPartition(300, 3, 48L * 1024 * 1024);

        long bytes = Arrays.stream(counts).asLongStream().sum() * CatchUpBacklog.RECORD_BYTES;
        assertThat(bytes).isBetween(47L * 1024 * 1024, 49L * 1024 * 1024);
    }

    @Test
    void everyBrokersPartitions_getTheSameSpreadFromSmallToLarge() {
        int[] counts = CatchUpBacklog.recordsPerPartition(300, 3, 48L * 1024 * 1024);

        // Partitions 0, 1, 2 (one per preferred broker) are the smallest, 297, 298, 299 the largest.
        assertThat(counts[0]).isEqualTo(counts[1]).isEqualTo(counts[2]);
        assertThat(counts[297]).isEqualTo(counts[298]).isEqualTo(counts[299]);
        assertThat(counts[299]).isGreaterThan(50 * counts[0]);
        for (int p = 3; p < 300; p++) {
            assertThat(counts[p]).isGreaterThanOrEqualTo(counts[p - 3]);
        }
    }

    @Test
    void tinyBacklog_stillWritesOneRecordPerPartition() {
        int[] counts = CatchUpBacklog.recordsPerPartition(30, 3, 1);

        assertThat(counts).hasSize(30);
        assertThat(Arrays.stream(counts).min().orElseThrow()).isEqualTo(1);
    }
}
