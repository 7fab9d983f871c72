package io.leaderpacer.loadtest;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Kafka broker settings one round of a load test runs under ({@code broker.KEY=VALUE} in a policy's spec, see
 * {@link NamedPolicy}): set as cluster-wide dynamic defaults before the round, put back as they were after it.
 *
 * <p>Why cluster-wide defaults: a broker that is down reads them when it starts again, as it could not receive a
 * per-broker config (that request goes to the broker itself); the restarted broker's own fetchers are what a setting
 * such as {@code num.replica.fetchers} changes. Why wait for every broker: a broker applies a dynamic default when its
 * metadata catches up, and Kafka checks some values only there (a thread count may change at most to double or half
 * per change, {@code DynamicThreadPool}); a value a broker did not take must fail the round, not measure nothing.
 */
final class RoundBrokerSettings implements AutoCloseable {

    private static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");

    private final Admin admin;
    private final Duration timeout;
    /** Per key set, the cluster-wide dynamic default before the round; empty where there was none. */
    private final Map<String, Optional<String>> before;
    /** Per broker, the value of each key in force there before the round: what it must report again after it. */
    private final Map<ConfigResource, Map<String, String>> inForceBefore;

    private RoundBrokerSettings(
            Admin admin,
            Duration timeout,
            Map<String, Optional<String>> before,
            Map<ConfigResource, Map<String, String>> inForceBefore) {
        this.admin = admin;
        this.timeout = timeout;
        this.before = before;
        this.inForceBefore = inForceBefore;
    }

    /**
     * Sets the settings as cluster-wide dynamic defaults and waits until each of the brokers reports them.
     *
     * @throws IllegalStateException naming the setting and the broker when Kafka refuses it or a broker does not take
     *                               it within the timeout; what was set is put back first
     */
    static RoundBrokerSettings apply(
            Admin admin, Map<String, String> settings, Collection<Integer> brokers, Duration timeout)
            throws InterruptedException {
        Map<String, Optional<String>> before = new LinkedHashMap<>();
        if (settings.isEmpty()) {
            return new RoundBrokerSettings(admin, timeout, before, Map.of());
        }
        List<ConfigResource> resources = brokers.stream()
                .map(b -> new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(b)))
                .toList();
        Map<ConfigResource, Map<String, String>> inForceBefore = new LinkedHashMap<>();
        get(admin.describeConfigs(resources).all(), timeout, "read the brokers' settings")
                .forEach((r, c) -> {
                    Map<String, String> values = new LinkedHashMap<>();
                    settings.keySet()
                            .forEach(k -> values.put(
                                    k, c.get(k) == null ? null : c.get(k).value()));
                    inForceBefore.put(r, values);
                });
        Config current = get(
                        admin.describeConfigs(List.of(CLUSTER_DEFAULT)).all(),
                        timeout,
                        "read the cluster-wide broker" + " defaults")
                .get(CLUSTER_DEFAULT);
        for (String key : settings.keySet()) {
            ConfigEntry e = current.get(key);
            before.put(
                    key,
                    e != null && e.source() == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
                            ? Optional.ofNullable(e.value())
                            : Optional.empty());
        }
        RoundBrokerSettings applied = new RoundBrokerSettings(admin, timeout, before, inForceBefore);
        List<AlterConfigOp> ops = new ArrayList<>();
        settings.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        try {
            get(
                    admin.incrementalAlterConfigs(Map.of(CLUSTER_DEFAULT, ops)).all(),
                    timeout,
                    "set the broker settings " + settings + " as cluster-wide defaults");
            Map<ConfigResource, Map<String, String>> wanted = new LinkedHashMap<>();
            resources.forEach(r -> wanted.put(r, settings));
            awaitInForce(admin, wanted, timeout);
            return applied;
        } catch (RuntimeException | InterruptedException e) {
            // What went wrong first is the news; a failure to put back is added to it, not put in its place.
            try {
                applied.close();
            } catch (RuntimeException c) {
                e.addSuppressed(c);
            }
            throw e;
        }
    }

    /**
     * Puts back each setting's cluster-wide default as it was before the round (removed where there was none), and
     * waits until every broker has again what it had: a broker answers from its own metadata, so the next round would
     * otherwise read this round's value as the one to put back.
     */
    @Override
    public void close() {
        if (before.isEmpty()) {
            return;
        }
        List<AlterConfigOp> ops = new ArrayList<>();
        before.forEach((k, v) -> ops.add(
                v.isPresent()
                        ? new AlterConfigOp(new ConfigEntry(k, v.get()), AlterConfigOp.OpType.SET)
                        : new AlterConfigOp(new ConfigEntry(k, null), AlterConfigOp.OpType.DELETE)));
        try {
            get(
                    admin.incrementalAlterConfigs(Map.of(CLUSTER_DEFAULT, ops)).all(),
                    timeout,
                    "put back the cluster-wide" + " broker defaults " + before.keySet());
            awaitInForce(admin, inForceBefore, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted while putting back the cluster-wide broker defaults " + before.keySet(), e);
        }
    }

    /** Waits until each broker reports the given values in force. */
    private static void awaitInForce(Admin admin, Map<ConfigResource, Map<String, String>> wanted, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String missing;
        do {
            Map<ConfigResource, Config> configs =
                    get(admin.describeConfigs(wanted.keySet()).all(), timeout, "read the brokers' settings");
            missing = firstMissing(configs, wanted);
            if (missing == null) {
                return;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new IllegalStateException(
                missing + " within " + timeout.toSeconds() + " s (Kafka lets a thread count change"
                        + " at most to double or half its current value per change; the broker's log names what it refused)");
    }

    /** The first broker and setting not in force there, as a sentence; null when every broker has every setting. */
    private static String firstMissing(
            Map<ConfigResource, Config> configs, Map<ConfigResource, Map<String, String>> wanted) {
        for (Map.Entry<ConfigResource, Config> c : configs.entrySet()) {
            for (Map.Entry<String, String> s : wanted.get(c.getKey()).entrySet()) {
                ConfigEntry e = c.getValue().get(s.getKey());
                if (!Objects.equals(s.getValue(), e == null ? null : e.value())) {
                    return "broker " + c.getKey().name() + " did not take " + s.getKey() + "=" + s.getValue()
                            + " (it has " + (e == null ? "no such setting" : e.value()) + ")";
                }
            }
        }
        return null;
    }

    private static <T> T get(KafkaFuture<T> future, Duration timeout, String what) throws InterruptedException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "could not " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("could not " + what + " within " + timeout.toSeconds() + " s", e);
        }
    }
}
