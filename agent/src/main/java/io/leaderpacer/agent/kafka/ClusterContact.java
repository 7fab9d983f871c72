package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.core.TimeoutMs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The start-up attempt's first request: any broker's answer will do.
 *
 * <p>Why apart from the checks that follow it: until one broker answers, nothing else can be asked, and the agent's
 * start-up tells "not reachable yet" (retried with back-off) from "reachable and refused" (final) by which step failed.
 */
public final class ClusterContact {

    private ClusterContact() {}

    /**
     * Returns once a broker listed the cluster's nodes within {@code timeout}.
     *
     * @throws Exception what the Admin client reported: a time-out, a TLS or SASL failure, a refusal
     */
    public static void anyBroker(Admin admin, Duration timeout) throws Exception {
        int ms = TimeoutMs.of(timeout);
        admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms))
                .nodes()
                .get(ms + 1_000L, TimeUnit.MILLISECONDS);
    }
}
