package io.leaderpacer.loadtest.probe;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The probe's throttle settings, written with plain Admin calls so that each case sets exactly what it names, and
 * read back so that the report shows what Kafka holds.
 */
final class ProbeThrottles {

    private static final List<String> RATE_KEYS =
            List.of("follower.replication.throttled.rate", "leader.replication.throttled.rate");
    private static final List<String> LIST_KEYS =
            List.of("follower.replication.throttled.replicas", "leader.replication.throttled.replicas");
    private static final long TIMEOUT_S = 15;

    private final Admin admin;

    ProbeThrottles(Admin admin) {
        this.admin = admin;
    }

    /** Sets the rate of a throttle; per broker on {@code restarted} (follower side) or on every other broker (leader). */
    void setRate(ThrottleSetup t, int restarted, Collection<Integer> brokers) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        for (String name : rateResources(t, restarted, brokers)) {
            ops.put(
                    new ConfigResource(ConfigResource.Type.BROKER, name),
                    List.of(new AlterConfigOp(
                            new ConfigEntry(t.rateKey(), Long.toString(t.bytesPerSecond())),
                            AlterConfigOp.OpType.SET)));
        }
        alter(ops);
    }

    /** Sets the topic's replica list of a throttle. */
    void setList(ThrottleSetup t, String topic, int partitions, int restarted, Collection<Integer> brokers)
            throws Exception {
        alter(Map.of(
                new ConfigResource(ConfigResource.Type.TOPIC, topic),
                List.of(new AlterConfigOp(
                        new ConfigEntry(t.listKey(), list(t, partitions, restarted, brokers)),
                        AlterConfigOp.OpType.SET))));
    }

    /** Deletes the rates of a throttle (as {@link #setRate} set them). */
    void deleteRate(ThrottleSetup t, int restarted, Collection<Integer> brokers) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        for (String name : rateResources(t, restarted, brokers)) {
            ops.put(
                    new ConfigResource(ConfigResource.Type.BROKER, name),
                    List.of(new AlterConfigOp(new ConfigEntry(t.rateKey(), ""), AlterConfigOp.OpType.DELETE)));
        }
        alter(ops);
    }

    /** Deletes the topic's replica list of a throttle. */
    void deleteList(ThrottleSetup t, String topic) throws Exception {
        alter(Map.of(
                new ConfigResource(ConfigResource.Type.TOPIC, topic),
                List.of(new AlterConfigOp(new ConfigEntry(t.listKey(), ""), AlterConfigOp.OpType.DELETE))));
    }

    /** Deletes every throttle key from the cluster default, every broker and every topic given. */
    void clearAll(Collection<Integer> brokers, Collection<String> topics) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        names.add("");
        brokers.forEach(b -> names.add(Integer.toString(b)));
        for (String name : names) {
            ops.put(
                    new ConfigResource(ConfigResource.Type.BROKER, name),
                    RATE_KEYS.stream()
                            .map(k -> new AlterConfigOp(new ConfigEntry(k, ""), AlterConfigOp.OpType.DELETE))
                            .toList());
        }
        for (String topic : topics) {
            ops.put(
                    new ConfigResource(ConfigResource.Type.TOPIC, topic),
                    LIST_KEYS.stream()
                            .map(k -> new AlterConfigOp(new ConfigEntry(k, ""), AlterConfigOp.OpType.DELETE))
                            .toList());
        }
        alter(ops);
    }

    /** Every throttle key set anywhere among these resources, as "resource: key=value"; empty when none is. */
    List<String> inForce(Collection<Integer> brokers, Collection<String> topics) throws Exception {
        List<ConfigResource> resources = new ArrayList<>();
        resources.add(new ConfigResource(ConfigResource.Type.BROKER, ""));
        brokers.forEach(b -> resources.add(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(b))));
        topics.forEach(t -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, t)));
        Map<ConfigResource, Config> configs =
                admin.describeConfigs(resources).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        List<String> out = new ArrayList<>();
        configs.forEach((r, c) -> c.entries().stream()
                .filter(e -> RATE_KEYS.contains(e.name()) || LIST_KEYS.contains(e.name()))
                .filter(e -> e.source() == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG
                        || e.source() == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
                        || e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)
                .filter(e -> r.type() == ConfigResource.Type.TOPIC
                        || r.name().isEmpty()
                        || e.source() == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG)
                .forEach(e -> out.add((r.type() == ConfigResource.Type.TOPIC
                                ? "topic " + r.name()
                                : r.name().isEmpty() ? "cluster default" : "broker " + r.name())
                        + ": " + e.name() + "="
                        + e.value())));
        return out;
    }

    private static List<String> rateResources(ThrottleSetup t, int restarted, Collection<Integer> brokers) {
        if (t.scope() == ThrottleSetup.Scope.CLUSTER_DEFAULT) {
            return List.of("");
        }
        if (t.side() == ThrottleSetup.Side.FOLLOWER) {
            return List.of(Integer.toString(restarted));
        }
        return brokers.stream().filter(b -> b != restarted).map(String::valueOf).toList();
    }

    /** {@code *}, or the entries: the restarted broker's replicas (follower), or every other replica (leader). */
    static String list(ThrottleSetup t, int partitions, int restarted, Collection<Integer> brokers) {
        if (t.lists() == ThrottleSetup.Lists.ALL) {
            return "*";
        }
        List<String> entries = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (t.side() == ThrottleSetup.Side.FOLLOWER) {
                entries.add(p + ":" + restarted);
            } else {
                for (int b : brokers) {
                    if (b != restarted) {
                        entries.add(p + ":" + b);
                    }
                }
            }
        }
        return entries.stream().collect(Collectors.joining(","));
    }

    private void alter(Map<ConfigResource, Collection<AlterConfigOp>> ops) throws Exception {
        try {
            admin.incrementalAlterConfigs(ops).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new TimeoutException("no answer within " + TIMEOUT_S + " s to altering " + ops.keySet());
        }
    }
}
