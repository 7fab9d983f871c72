package io.leaderpacer.cli.demo;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecoveryComparisonTest {

    private static RecoverySummary summary(String policy, long regainMs, int maxGained, int over, double p99) {
        return new RecoverySummary(policy, OptionalLong.of(1_000), regainMs < 0 ? OptionalLong.empty()
                : OptionalLong.of(regainMs), maxGained, 5, over, 10, p99, p99 * 2);
    }

    private final RecoveryComparison comparison = new RecoveryComparison(List.of(
            summary("wait-for-sync", 31_250, 20, 0, 4.0),
            summary("immediate", -1, 57, 241, 12.5)));

    @Test
    void header_namesEachPolicyInOrder() {
        assertThat(comparison.header()).containsExactly("", "wait-for-sync", "immediate");
    }

    @Test
    void rows_holdOneCellPerPolicy() {
        assertThat(comparison.rows()).allSatisfy(row -> assertThat(row).hasSize(3));
        assertThat(comparison.rows()).contains(
                List.of("all preferred leadership back after", "31.3 s", "never"),
                List.of("most leaders gained in one run", "20", "57"),
                List.of("leaders returned while >10% out of sync", "0", "241"),
                List.of("produce p99, restart to full leadership", "4.0 ms", "12.5 ms"));
    }

    @Test
    void lines_alignTheColumns() {
        List<String> lines = comparison.lines();

        assertThat(lines.get(0)).endsWith("wait-for-sync        immediate");
        assertThat(lines).anySatisfy(l -> assertThat(l).endsWith("0              241"));
    }

    @Test
    void noRecording_isRefused() {
        assertThatThrownBy(() -> new RecoveryComparison(List.of())).hasMessageContaining("no recovery");
    }
}
