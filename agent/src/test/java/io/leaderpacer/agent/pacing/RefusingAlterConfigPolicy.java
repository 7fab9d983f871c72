package io.leaderpacer.agent.pacing;

import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.server.policy.AlterConfigPolicy;

import java.util.Map;

/**
 * A real Kafka {@code alter.config.policy.class.name}, run by the test cluster's controller: while {@link #refuse} is
 * set it refuses every change of a follower rate, as an operator's policy, an authorizer or an overloaded controller
 * would, so that a test sees what the agent does when Kafka refuses a throttle change.
 */
public final class RefusingAlterConfigPolicy implements AlterConfigPolicy {

    /** Whether changes of a follower rate are refused now. */
    public static volatile boolean refuse;

    @Override
    public void validate(RequestMetadata request) {
        if (refuse && request.configs().containsKey("follower.replication.throttled.rate")) {
            throw new PolicyViolationException("follower rates are frozen by the test's policy");
        }
    }

    @Override
    public void configure(Map<String, ?> configs) {}

    @Override
    public void close() {}
}
