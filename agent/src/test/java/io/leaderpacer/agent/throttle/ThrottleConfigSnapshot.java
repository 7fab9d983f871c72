package io.leaderpacer.agent.throttle;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.config.ConfigResource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Every replication throttle value a real cluster reports, as text per resource and key, exactly as Kafka returns it:
 * the cluster default and each named broker's own values (not inherited ones), and every topic's lists. Tests take one
 * before and one after, and compare them byte for byte.
 */
public final class ThrottleConfigSnapshot {

    private ThrottleConfigSnapshot() {}

    /** The values on these brokers (each asked of itself, so it must be up) and on every topic. */
    public static Map<String, String> of(Admin admin, Collection<Integer> brokers) throws Exception {
        List<ConfigResource> resources = new ArrayList<>();
        resources.add(BrokerScope.clusterDefault().resource());
        brokers.forEach(b -> resources.add(BrokerScope.broker(b).resource()));
        admin.listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get(30, TimeUnit.SECONDS)
                .forEach(t -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, t)));
        Map<ConfigResource, Config> configs =
                admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
        Map<String, String> out = new TreeMap<>();
        configs.forEach((r, c) -> {
            for (ThrottleSide side : ThrottleSide.values()) {
                for (String key : List.of(side.rateKey(), side.replicasKey())) {
                    ConfigEntry e = c.get(key);
                    if (e == null || e.value() == null || e.source() == ConfigEntry.ConfigSource.DEFAULT_CONFIG) {
                        continue;
                    }
                    boolean own = r.type() == ConfigResource.Type.TOPIC
                            || (r.name().isEmpty()
                                    ? e.source() == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
                                    : e.source() == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
                    if (own) {
                        out.put(
                                (r.type() == ConfigResource.Type.TOPIC
                                                ? "topic " + r.name()
                                                : r.name().isEmpty() ? "cluster default" : "broker " + r.name())
                                        + " " + key,
                                e.value());
                    }
                }
            }
        });
        return out;
    }
}
