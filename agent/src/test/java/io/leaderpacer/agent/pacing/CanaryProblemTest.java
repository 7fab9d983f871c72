package io.leaderpacer.agent.pacing;

import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked: the canary's problem names ACLs only when Kafka refused it for want of them. */
class CanaryProblemTest {

    @Test
    void aTopicNotYetOnEveryBroker_saysItIsTriedAgain_notThatAclsAreMissing() {
        String problem = CanarySignal.problem(new UnknownTopicOrPartitionException("not hosted"), "not hosted");

        assertThat(problem).contains("not hosted").contains("tried again").doesNotContain("Create, Write");
    }

    @Test
    void aRefusal_namesThePermissionsTheCanaryNeeds() {
        String problem = CanarySignal.problem(new TopicAuthorizationException("denied"), "denied");

        assertThat(problem)
                .contains("denied")
                .contains("Create, Write and Describe")
                .doesNotContain("tried again");
    }
}
