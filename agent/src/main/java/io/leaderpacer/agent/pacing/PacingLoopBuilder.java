package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.kafka.BrokerConfigReader;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.kafka.PermissionCheck;
import io.leaderpacer.agent.kafka.ReplicaSizeReader;
import io.leaderpacer.agent.throttle.ReplicationThrottles;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Builds a {@link PacingLoop}: the Admin client and its bounds are required, the rest has defaults a single agent can
 * use (an in-memory ledger, no guard, no canary, the system's time, Kafka's limits).
 */
public final class PacingLoopBuilder {
    private final Admin admin;
    private final Duration timeout;
    private final int describeBatchTopics;
    private LedgerStore store = LedgerStore.inMemory();
    private ActionGuard guard = ActionGuard.NONE;
    private IntFunction<OptionalDouble> canary = b -> OptionalDouble.empty();
    private Map<String, Object> canaryClient;
    private String canaryTopic = Canary.DEFAULT_TOPIC;
    private Time time = Time.SYSTEM;
    private SecretRedactor redactor = SecretRedactor.none();
    private ThrottleReconciler.Limits limits;

    PacingLoopBuilder(Admin admin, Duration timeout, int describeBatchTopics) {
        this.admin = admin;
        this.timeout = timeout;
        this.describeBatchTopics = describeBatchTopics;
    }

    /** Where the ledger of what pacing changed is kept (default: memory). */
    public PacingLoopBuilder ledger(LedgerStore value) {
        this.store = value;
        return this;
    }

    /** Checked before every change (default: none, a single instance). */
    public PacingLoopBuilder guard(ActionGuard value) {
        this.guard = value;
        return this;
    }

    /** Per broker, the canary's P99 over its steady P99 where it is an in-sync follower (default: none). */
    public PacingLoopBuilder canary(IntFunction<OptionalDouble> value) {
        this.canary = value;
        return this;
    }

    /**
     * The client settings (bootstrap servers, security) the adaptive mode's {@link Canary} produces with, and its
     * topic; without them the adaptive mode has no canary and holds its rate.
     */
    public PacingLoopBuilder canaryClient(Map<String, Object> clientProperties, String topic) {
        this.canaryClient = Map.copyOf(clientProperties);
        this.canaryTopic = topic;
        return this;
    }

    /** The loop's time (default: the system's): looks, canary windows and max-wait read it. */
    public PacingLoopBuilder time(Time value) {
        this.time = value;
        return this;
    }

    public PacingLoopBuilder redactor(SecretRedactor value) {
        this.redactor = value;
        return this;
    }

    /** Smaller limits than Kafka's on lists and requests: for tests of a few partitions (default: Kafka's). */
    PacingLoopBuilder limits(ThrottleReconciler.Limits value) {
        this.limits = value;
        return this;
    }

    public PacingLoop build() {
        ThrottleLedger ledger = new ThrottleLedger(store);
        Map<String, Object> client = canaryClient;
        String topic = canaryTopic;
        Time t = time;
        Supplier<Canary> factory =
                client == null ? null : () -> new Canary(admin, client, topic, timeout, t::milliseconds);
        return new PacingLoop(
                new ClusterReader(admin, timeout, describeBatchTopics),
                new RecoveryObserver(new ReplicaSizeReader(admin, timeout), new BrokerConfigReader(admin, timeout)),
                new ThrottleReconciler(
                        new ReplicationThrottles(admin, timeout, time),
                        ledger,
                        guard,
                        limits != null ? limits : ThrottleReconciler.Limits.kafka(describeBatchTopics),
                        time),
                ledger,
                canary,
                new PacingLoop.CanarySource(factory, client == null ? null : topic),
                time,
                redactor,
                new PermissionCheck(admin, timeout, Map.of(), Optional.empty()));
    }
}
