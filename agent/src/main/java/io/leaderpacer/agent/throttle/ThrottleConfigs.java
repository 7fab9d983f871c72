package io.leaderpacer.agent.throttle;

import org.apache.kafka.common.config.ConfigResource;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The port catch-up pacing reads and writes replication throttle configs through: {@link ReplicationThrottles} on a
 * real cluster.
 *
 * <p>Why a port: what pacing must survive (a request refused, one that lands and is never confirmed, a process killed
 * between its ledger and its request) is checked over thousands of random sequences against a model of Kafka's
 * config semantics; the same code runs against real clusters in the cluster tests.
 */
public interface ThrottleConfigs {

    /**
     * What the brokers report for these scopes and topics, resource by resource, at most {@code batch} resources a
     * call: see {@link ReplicationThrottles#describeEach}.
     */
    ThrottleReading describeEach(Collection<BrokerScope> scopes, Collection<String> topics, int batch)
            throws InterruptedException;

    /**
     * Sends these operations in one request (each key of a resource at most once) and waits for each resource's
     * answer: empty when Kafka applied its changes, else why not (a time-out: they may or may not have landed).
     */
    Map<ConfigResource, Optional<Throwable>> applyEach(List<ThrottleOp> ops) throws InterruptedException;
}
