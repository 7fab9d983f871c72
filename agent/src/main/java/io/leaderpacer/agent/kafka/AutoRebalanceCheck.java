package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.core.TimeoutMs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads every broker's {@code auto.leader.rebalance.enable}.
 *
 * <p>Why: with it on, Kafka's controller runs its own periodic preferred-leader election and hands leadership
 * back immediately, undoing every gate and throttle the agent applies; the two would fight. The agent therefore
 * checks it before its first run and refuses to start when any broker has it on (see
 * {@link AutoRebalanceEnabledException}).
 *
 * <p>In KRaft mode the controllers run that task; their configuration cannot be read through the brokers, so
 * the brokers' value stands for it (the same server.properties usually sets both).
 */
public final class AutoRebalanceCheck {

    /** The broker configuration that turns Kafka's own preferred-leader election on. */
    public static final String KEY = "auto.leader.rebalance.enable";

    /** The cluster; owned by the caller. */
    private final Admin admin;
    /** Bound on each Admin call. */
    private final Duration timeout;

    public AutoRebalanceCheck(Admin admin, Duration timeout) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * The brokers' values.
     *
     * @param brokers          every broker asked, ascending
     * @param enabledOn        the brokers that have it on
     */
    public record Result(List<Integer> brokers, List<Integer> enabledOn) {
        public Result {
            brokers = List.copyOf(brokers);
            enabledOn = List.copyOf(enabledOn);
        }

        public boolean anyEnabled() {
            return !enabledOn.isEmpty();
        }
    }

    /**
     * Asks every registered broker.
     *
     * @throws ExecutionException when Kafka refused a call (the cause says why, e.g. not authorized)
     * @throws TimeoutException   when the cluster did not answer in time (unreachable)
     */
    public Result check() throws InterruptedException, ExecutionException, TimeoutException {
        int ms = TimeoutMs.of(timeout);
        Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms))
                .nodes()
                .get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        List<ConfigResource> resources = new ArrayList<>();
        nodes.stream()
                .map(Node::id)
                .sorted()
                .forEach(id -> resources.add(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(id))));
        Map<ConfigResource, Config> configs = admin.describeConfigs(
                        resources, new DescribeConfigsOptions().timeoutMs(ms))
                .all()
                .get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        List<Integer> brokers = new ArrayList<>();
        List<Integer> enabled = new ArrayList<>();
        for (ConfigResource r : resources) {
            int id = Integer.parseInt(r.name());
            brokers.add(id);
            ConfigEntry entry = configs.get(r) == null ? null : configs.get(r).get(KEY);
            // Kafka's default is true: a broker that does not report the key has it on.
            if (entry == null || entry.value() == null || Boolean.parseBoolean(entry.value())) {
                enabled.add(id);
            }
        }
        return new Result(brokers, enabled);
    }
}
