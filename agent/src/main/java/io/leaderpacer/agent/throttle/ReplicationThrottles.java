package io.leaderpacer.agent.throttle;

import io.leaderpacer.agent.core.Answers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.utils.Time;

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
 * Sets, removes and reads Kafka's replication throttles through the Admin API (see the package documentation for
 * what they are and how Kafka applies them).
 *
 * <p>Why a class: a throttle is two kinds of config resource (the rate on brokers, the replica list on topics),
 * written with {@code incrementalAlterConfigs} and in force only once the brokers report it; this class is the one
 * place that knows the keys, the value formats and the operations. It decides nothing: each method is one of Kafka's
 * operations. Several changes go in one request through {@link #change()}; the other setters send one change each.
 *
 * <p>Needs {@code AlterConfigs} on the cluster (broker rates) and on the topics, and {@code DescribeConfigs} to read.
 */
public final class ReplicationThrottles implements ThrottleConfigs {

    /** The cluster; owned by the caller. */
    private final Admin admin;
    /** Bound on each Admin call. */
    private final Duration timeout;
    /** The clock the bounds are kept on. */
    private final Time time;

    /** On the system clock. */
    public ReplicationThrottles(Admin admin, Duration timeout) {
        this(admin, timeout, Time.SYSTEM);
    }

    public ReplicationThrottles(Admin admin, Duration timeout, Time time) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** An empty batch of changes, sent in one request by {@link ThrottleChange#apply()}. */
    public ThrottleChange change() {
        return new ThrottleChange(this);
    }

    /** {@link ThrottleChange#setRate}, sent alone. */
    public void setRate(ThrottleSide side, BrokerScope scope, long bytesPerSecond)
            throws InterruptedException, ExecutionException, TimeoutException {
        change().setRate(side, scope, bytesPerSecond).apply();
    }

    /** {@link ThrottleChange#removeRate}, sent alone. */
    public void removeRate(ThrottleSide side, BrokerScope scope)
            throws InterruptedException, ExecutionException, TimeoutException {
        change().removeRate(side, scope).apply();
    }

    /** {@link ThrottleChange#setReplicas}, sent alone. */
    public void setReplicas(ThrottleSide side, String topic, ThrottledReplicas replicas)
            throws InterruptedException, ExecutionException, TimeoutException {
        change().setReplicas(side, topic, replicas).apply();
    }

    /** {@link ThrottleChange#addReplicas}, sent alone. */
    public void addReplicas(ThrottleSide side, String topic, Collection<ThrottledReplicas.Replica> replicas)
            throws InterruptedException, ExecutionException, TimeoutException {
        change().addReplicas(side, topic, replicas).apply();
    }

    /** {@link ThrottleChange#removeReplicas}, sent alone. */
    public void removeReplicas(ThrottleSide side, String topic, Collection<ThrottledReplicas.Replica> replicas)
            throws InterruptedException, ExecutionException, TimeoutException {
        change().removeReplicas(side, topic, replicas).apply();
    }

    /** {@link ThrottleChange#clearReplicas}, sent alone. */
    public void clearReplicas(ThrottleSide side, String topic)
            throws InterruptedException, ExecutionException, TimeoutException {
        change().clearReplicas(side, topic).apply();
    }

    /**
     * What the brokers report now for these scopes and topics, in one {@code describeConfigs} call. A per-broker
     * scope is answered by that broker, so a change is in force on it once this shows it.
     *
     * @throws ExecutionException when Kafka refused (e.g. not authorized, or an unknown topic or broker)
     * @throws TimeoutException   when the cluster did not answer in time (a stopped broker's scope does not answer)
     */
    public ThrottleSettings describe(Collection<BrokerScope> scopes, Collection<String> topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<ConfigResource> resources = new ArrayList<>();
        scopes.forEach(s -> resources.add(s.resource()));
        topics.forEach(t -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, t)));
        if (resources.isEmpty()) {
            throw new IllegalArgumentException("nothing to describe: no broker scope and no topic");
        }
        return new ThrottleSettings(
                admin.describeConfigs(resources).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
    }

    /** The side's rate in the scope; empty when none is set there. */
    public Optional<ThrottleRate> rate(ThrottleSide side, BrokerScope scope)
            throws InterruptedException, ExecutionException, TimeoutException {
        return describe(List.of(scope), List.of()).rate(side, scope);
    }

    /** The side's throttled replicas of the topic; empty when none are set. */
    public Optional<ThrottledReplicas> replicas(ThrottleSide side, String topic)
            throws InterruptedException, ExecutionException, TimeoutException {
        return describe(List.of(), List.of(topic)).replicas(side, topic);
    }

    /**
     * What the brokers report for these scopes and topics, resource by resource, in {@code describeConfigs} calls of
     * at most {@code batch} resources: a topic deleted meanwhile ({@code UnknownTopicOrPartitionException}) or a
     * broker that does not answer fails its own resource, not the others.
     *
     * @param batch the most resources one call asks for (a look at 10,000 topics is not one response of 10,000
     *              topics' every config)
     */
    @Override
    public ThrottleReading describeEach(Collection<BrokerScope> scopes, Collection<String> topics, int batch)
            throws InterruptedException {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1, was " + batch);
        }
        List<ConfigResource> resources = new ArrayList<>();
        scopes.forEach(s -> resources.add(s.resource()));
        topics.forEach(t -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, t)));
        Map<ConfigResource, Config> configs = new LinkedHashMap<>();
        Map<ConfigResource, Throwable> failed = new LinkedHashMap<>();
        for (int from = 0; from < resources.size(); from += batch) {
            List<ConfigResource> part = resources.subList(from, Math.min(resources.size(), from + batch));
            Map<ConfigResource, KafkaFuture<Config>> futures =
                    admin.describeConfigs(part).values();
            Answers<ConfigResource, Config> answers = Answers.await(futures, time.timer(timeout));
            configs.putAll(answers.answered());
            failed.putAll(answers.failed());
        }
        return new ThrottleReading(new ThrottleSettings(configs), failed);
    }

    void alter(Map<ConfigResource, Collection<AlterConfigOp>> ops)
            throws InterruptedException, ExecutionException, TimeoutException {
        admin.incrementalAlterConfigs(ops).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public Map<ConfigResource, Optional<Throwable>> applyEach(List<ThrottleOp> ops) throws InterruptedException {
        ThrottleChange change = change();
        ops.forEach(change::add);
        return change.applyEach();
    }

    /** {@link #alter}, answered resource by resource: see {@link ThrottleChange#applyEach()}. */
    Map<ConfigResource, Optional<Throwable>> alterEach(Map<ConfigResource, Collection<AlterConfigOp>> ops)
            throws InterruptedException {
        Map<ConfigResource, KafkaFuture<Void>> futures =
                admin.incrementalAlterConfigs(ops).values();
        Answers<ConfigResource, Void> answers = Answers.await(futures, time.timer(timeout));
        Map<ConfigResource, Optional<Throwable>> out = new LinkedHashMap<>();
        futures.keySet()
                .forEach(r -> out.put(r, Optional.ofNullable(answers.failed().get(r))));
        return out;
    }
}
