package io.leaderpacer.agent.coordination;

import io.leaderpacer.agent.core.StateTopic;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of an {@link ActiveRole}, from {@link ActiveRole#builder}.
 *
 * <p>Why a builder: an election needs the cluster's clients and a handful of optional settings (group, topic,
 * session time-out, names, clocks, a takeover hook); each setter checks its value at once, so a bad setting is
 * reported where it is given, before any Kafka client exists.
 */
public final class ActiveRoleBuilder {

    /** The agent's Admin client, to check the state topic and name the active instance; not closed by the election. */
    final Admin admin;
    /** Bootstrap servers and security settings for the group's consumer and the fenced producer. */
    final Map<String, ?> clientProperties;
    /** The consumer group whose one partition owner is active; also names the shared transactional id. */
    String groupId = ActiveRole.DEFAULT_GROUP_ID;
    /** The single-partition state topic whose partition is the role. */
    String topic = StateTopic.DEFAULT_NAME;
    /** How long a silent member keeps the role; a third of it is the confirmation's lifetime. */
    Duration sessionTimeout = ActiveRole.DEFAULT_SESSION_TIMEOUT;
    /** How this instance is named in logs, /status and its successor's log. */
    String instanceId = InstanceIds.defaultInstanceId();
    /** Bound on each blocking Kafka call. */
    Duration timeout = Duration.ofSeconds(30);
    /** Wall-clock milliseconds for the hand-over summary and status; monotonic nanoseconds for the confirmation. */
    Time time = Time.SYSTEM;
    /** Run on each takeover, before the first run. */
    Runnable onTakeover = () -> {};

    ActiveRoleBuilder(Admin admin, Map<String, ?> clientProperties) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.clientProperties = Objects.requireNonNull(clientProperties, "clientProperties");
    }

    /**
     * The consumer group (default {@value ActiveRole#DEFAULT_GROUP_ID}); its transactional id is
     * {@code <group>-state}.
     */
    public ActiveRoleBuilder groupId(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("group id must not be blank");
        }
        this.groupId = value;
        return this;
    }

    /** The single-partition state topic whose partition is the role (default the state store's topic). */
    public ActiveRoleBuilder topic(String value) {
        this.topic = Objects.requireNonNull(value, "topic");
        return this;
    }

    /** The group session time-out (default 10 s); the broker accepts 6 s to 30 min by default. */
    public ActiveRoleBuilder sessionTimeout(Duration value) {
        if (value.toMillis() < 3) {
            throw new IllegalArgumentException("session time-out must be at least 3 ms, was " + value.toMillis());
        }
        this.sessionTimeout = value;
        return this;
    }

    /** How this instance is named in logs, /status and its successor's log (default host-pid). */
    public ActiveRoleBuilder instanceId(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("instance id must not be blank");
        }
        this.instanceId = value;
        return this;
    }

    /** Bound on each blocking Kafka call (default 30 s). */
    public ActiveRoleBuilder timeout(Duration value) {
        this.timeout = Objects.requireNonNull(value, "timeout");
        return this;
    }

    /** The election's time (default: the system's); the agent's, so that both read one time. */
    public ActiveRoleBuilder time(Time value) {
        this.time = Objects.requireNonNull(value, "time");
        return this;
    }

    /** Run after each takeover, before the first run: e.g. make the state store read its topic again. */
    public ActiveRoleBuilder onTakeover(Runnable value) {
        this.onTakeover = Objects.requireNonNull(value, "onTakeover");
        return this;
    }

    public ActiveRole build() {
        return new ActiveRole(this);
    }
}
