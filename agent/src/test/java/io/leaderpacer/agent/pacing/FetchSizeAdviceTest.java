package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.pacing.FetchSizeAdvice.FetchSizes;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The fetch-size advice of {@code pacer plan}, worked by hand. */
class FetchSizeAdviceTest {

    private static FetchSizes sizes(long response, long partition) {
        return new FetchSizes(OptionalLong.of(response), OptionalLong.of(partition));
    }

    @Test
    void kafkasDefaults_advisesSmallerSizes_namingEachBrokerAndItsValues() {
        List<String> advice = FetchSizeAdvice.advise(Map.of(2, sizes(10485760, 1048576), 1, sizes(10485760, 1048576)));

        assertThat(advice)
                .startsWith(
                        "Broker settings for a gentler catch-up (static: the agent changes none):",
                        "  broker 1: replica.fetch.response.max.bytes=10485760, replica.fetch.max.bytes=1048576",
                        "  broker 2: replica.fetch.response.max.bytes=10485760, replica.fetch.max.bytes=1048576",
                        "  advised: replica.fetch.response.max.bytes=1048576 and replica.fetch.max.bytes=262144 in each"
                                + " broker's server.properties, taken at its next restart.");
        assertThat(advice.get(4)).startsWith("  why: ").contains("evidence run 18");
        assertThat(advice.get(5))
                .as("the cost of smaller slices: a cut batch counts on the quota")
                .startsWith("  cost: ")
                .contains("replica.fetch.max.bytes", "partial-batch probe");
    }

    @Test
    void everyBrokerAtOrUnderTheAdvisedSizes_noAdvice() {
        assertThat(FetchSizeAdvice.advise(Map.of(0, sizes(1048576, 262144), 1, sizes(524288, 65536))))
                .isEmpty();
    }

    @Test
    void oneSizeLargerOnOneBroker_onlyThatBrokerListed() {
        List<String> advice = FetchSizeAdvice.advise(Map.of(0, sizes(1048576, 262144), 1, sizes(1048576, 262145)));

        assertThat(advice)
                .filteredOn(l -> l.startsWith("  broker "))
                .containsExactly(
                        "  broker 1: replica.fetch.response.max.bytes=1048576, replica.fetch.max.bytes=262145");
    }

    @Test
    void sizeNotReported_saysUnknown_andAdvisesOnTheOtherAlone() {
        List<String> advice =
                FetchSizeAdvice.advise(Map.of(3, new FetchSizes(OptionalLong.empty(), OptionalLong.of(1048576))));

        assertThat(advice)
                .contains("  broker 3: replica.fetch.response.max.bytes=unknown, replica.fetch.max.bytes=1048576");
        assertThat(FetchSizeAdvice.advise(Map.of(3, new FetchSizes(OptionalLong.empty(), OptionalLong.empty()))))
                .isEmpty();
    }
}
