package io.leaderpacer.cli.demo;

import io.leaderpacer.loadtest.LoadTestSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {

    @Test
    void demo_isAShortLoadTest_warmedUp_withTheBrokerCapped_comparingBothPolicies() {
        LoadTestSettings s = DemoCommand.settings(false, Path.of("out"));

        assertThat(s.warmup().minimum()).isPositive();
        assertThat(s.warmup().limit()).isGreaterThan(s.warmup().minimum());
        assertThat(s.saturate()).isTrue();
        assertThat(s.rounds()).isEqualTo(1);
        assertThat(s.policies()).extracting(p -> p.name()).containsExactly("immediate", "kip-example-scaled");
        assertThat(s.policies().get(1).config().waitForSync()).isTrue();
    }

    @Test
    void quick_hasTheSameShape_withLessToCatchUpOn() {
        LoadTestSettings full = DemoCommand.settings(false, Path.of("out"));
        LoadTestSettings quick = DemoCommand.settings(true, Path.of("out"));

        assertThat(quick.backlogBytes()).isLessThan(full.backlogBytes());
        assertThat(quick.loadPartitions()).isEqualTo(full.loadPartitions());
        assertThat(quick.policies()).isEqualTo(full.policies());
    }
}
