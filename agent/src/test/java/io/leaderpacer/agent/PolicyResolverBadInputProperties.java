package io.leaderpacer.agent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.engine.config.ConfigException;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dynamic overrides path under bad input: whatever sequence of stored overrides the agent reads (valid,
 * invalid, unknown keys mixed), each run's policy is either every override applied or the previous policy whole,
 * never a mixture, and a refused set is reported as a problem naming the key.
 */
class PolicyResolverBadInputProperties {

    /** Values that are valid for some keys and wrong for others. */
    private static final List<String> VALUES = List.of(
            "1",
            "0",
            "50",
            "2.5",
            "-1",
            "abc",
            "1e9",
            "99999999999999999999",
            "wait-for-sync",
            "immediate",
            "imbalanced-only",
            "wall",
            "1,2",
            "1,,2",
            "",
            " 7 ",
            "NaN",
            "x\ny");

    @Property(tries = 150)
    void everyRun_appliesAllOverridesOrKeepsThePreviousPolicyWhole(
            @ForAll("overrideSequence") List<Map<String, String>> runs) {
        AtomicReference<Map<String, String>> stored = new AtomicReference<>(Map.of());
        PolicyResolver resolver = new PolicyResolver(PacerConfig::defaults, stored::get, SecretRedactor.none());
        PacerConfig previous = PacerConfig.defaults();
        // Hundreds of refused sets would each log a warning: quiet for this property (PolicyResolverTest checks the
        // log).
        Logger log = (Logger) LoggerFactory.getLogger(PolicyResolver.class);
        Level level = log.getLevel();
        log.setLevel(Level.ERROR);
        try {
            for (Map<String, String> overrides : runs) {
                stored.set(overrides);
                PacerConfig expected;
                try {
                    expected = PacerConfig.defaults().withUpdates(overrides);
                } catch (ConfigException e) {
                    expected = null;
                }

                PacerConfig resolved = resolver.resolve();

                if (expected != null) {
                    assertThat(resolved).isEqualTo(expected);
                    assertThat(resolver.problem()).isEmpty();
                } else {
                    assertThat(resolved)
                            .as("a refused set keeps the previous policy whole")
                            .isSameAs(previous);
                    assertThat(resolver.problem())
                            .get()
                            .asString()
                            .startsWith("invalid dynamic overrides: ")
                            .doesNotContain("\n");
                }
                previous = resolved;
            }
        } finally {
            log.setLevel(level);
        }
    }

    @Provide
    Arbitrary<List<Map<String, String>>> overrideSequence() {
        Arbitrary<String> key =
                Arbitraries.oneOf(Arbitraries.of(ConfigKey.names()), Arbitraries.just("leader.imbalance.no.such.key"));
        Arbitrary<Map<String, String>> overrides =
                Arbitraries.maps(key, Arbitraries.of(VALUES)).ofMaxSize(4).map(HashMap::new);
        return overrides.list().ofMinSize(1).ofMaxSize(6);
    }
}
