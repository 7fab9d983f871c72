package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.core.TimeoutMs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeConfigsResult;
import org.apache.kafka.common.config.ConfigResource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Broker settings as each broker reports them ({@code describeConfigs} of its {@code BROKER} resource): its static
 * settings included, such as {@code replica.lag.time.max.ms} and its fetch sizes, which pacing reads and never writes.
 *
 * <p>Why a port: pacing needs these values to time its grace and to advise on fetch sizes, and two ways to fail: a
 * look goes on without a broker that does not answer ({@link #readEach}), while {@code pacer plan} says that it could
 * not read them ({@link #readAll}).
 */
public final class BrokerConfigReader {

    private final Admin admin;
    private final Duration timeout;

    public BrokerConfigReader(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /**
     * Per broker that answered within the time-out, the {@code keys} it has a value for; a broker that did not answer
     * (starting, gone, or refused) is absent.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    public Map<Integer, Map<String, String>> readEach(Collection<Integer> brokers, Set<String> keys)
            throws InterruptedException {
        Map<Integer, Map<String, String>> out = new TreeMap<>();
        if (brokers.isEmpty()) {
            return out;
        }
        long ms = timeout.toMillis();
        describe(brokers).values().forEach((resource, future) -> {
            try {
                out.put(Integer.parseInt(resource.name()), values(future.get(ms, TimeUnit.MILLISECONDS), keys));
            } catch (ExecutionException | TimeoutException e) {
                // Not read this time (a broker not answering, a permission missing): absent.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("interrupted while reading broker settings " + keys);
        }
        return out;
    }

    /**
     * Every broker's {@code keys} it has a value for, or the failure of any.
     *
     * @throws ExecutionException when a broker refused or failed to answer
     * @throws TimeoutException when not every broker answered within the time-out
     */
    public Map<Integer, Map<String, String>> readAll(Collection<Integer> brokers, Set<String> keys)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<ConfigResource, Config> configs = describe(brokers).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<Integer, Map<String, String>> out = new TreeMap<>();
        configs.forEach((resource, config) -> out.put(Integer.parseInt(resource.name()), values(config, keys)));
        return out;
    }

    private DescribeConfigsResult describe(Collection<Integer> brokers) {
        List<ConfigResource> resources = new ArrayList<>();
        for (int b : brokers) {
            resources.add(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(b)));
        }
        return admin.describeConfigs(resources, new DescribeConfigsOptions().timeoutMs(TimeoutMs.of(timeout)));
    }

    private static Map<String, String> values(Config config, Set<String> keys) {
        Map<String, String> out = new TreeMap<>();
        for (String key : keys) {
            ConfigEntry e = config.get(key);
            if (e != null && e.value() != null) {
                out.put(key, e.value());
            }
        }
        return out;
    }
}
