package io.leaderpacer.loadtest;

import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import io.leaderpacer.agent.throttle.ThrottleSettings;
import io.leaderpacer.agent.throttle.ThrottleSide;
import org.apache.kafka.clients.admin.Admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Whether any replication throttle config is left in a cluster: a load test's rounds must each start from none,
 * or a throttle left by the previous round would pace the next one's catch-up (as an earlier probe saw, catching up at
 * exactly the last rate set).
 */
final class ThrottleCheck {

    private ThrottleCheck() {}

    /** Every throttle value set on the cluster default, the brokers and the topics, as "where: key=value". */
    static List<String> leftInPlace(Admin admin, Collection<Integer> brokers, Collection<String> topics)
            throws Exception {
        List<BrokerScope> scopes = new ArrayList<>();
        scopes.add(BrokerScope.clusterDefault());
        brokers.forEach(b -> scopes.add(BrokerScope.broker(b)));
        ThrottleSettings s = new ReplicationThrottles(admin, Duration.ofSeconds(30)).describe(scopes, topics);
        List<String> out = new ArrayList<>();
        for (ThrottleSide side : ThrottleSide.values()) {
            for (BrokerScope scope : scopes) {
                s.rate(side, scope).ifPresent(r -> out.add(scope + ": " + side.rateKey() + "=" + r.bytesPerSecond()));
            }
            for (String t : topics) {
                s.replicas(side, t).ifPresent(r -> out.add("topic " + t + ": " + side.replicasKey() + "=" + r));
            }
        }
        return out;
    }
}
