package io.leaderpacer.cli.demo;

import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.loadtest.LoadTestSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {

    @Test
    void demo_isAShortLoadTest_warmedUp_withTheBrokerCapped_comparingTodayWithThePacedCatchUp() {
        LoadTestSettings s = DemoCommand.settings(false, Path.of("out"));

        assertThat(s.phases().warmup().minimum()).isPositive();
        assertThat(s.phases().warmup().limit())
                .isGreaterThan(s.phases().warmup().minimum());
        assertThat(s.cluster().saturate()).isTrue();
        assertThat(s.comparison().rounds()).isEqualTo(1);
        assertThat(s.comparison().policies())
                .extracting(p -> p.name())
                .containsExactly("immediate", "recommended-paced");
        assertThat(s.comparison().policies().get(1).config().waitForSync()).isTrue();
        assertThat(s.comparison().policies().get(1).config().valueOf(ConfigKey.CATCH_UP_PACING))
                .isEqualTo("adaptive");
    }

    @Test
    void quick_hasTheSameShape_withLessToCatchUpOn() {
        LoadTestSettings full = DemoCommand.settings(false, Path.of("out"));
        LoadTestSettings quick = DemoCommand.settings(true, Path.of("out"));

        assertThat(quick.backlog().bytes()).isLessThan(full.backlog().bytes());
        assertThat(quick.topics().loadPartitions()).isEqualTo(full.topics().loadPartitions());
        assertThat(quick.comparison().policies()).isEqualTo(full.comparison().policies());
    }
}
