package io.leaderpacer.agent.coordination;

import io.leaderpacer.agent.core.ActionGuard;
import io.leaderpacer.agent.core.NotActiveException;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.StateTopicSafety;
import io.leaderpacer.agent.dynamic.UnsafeTopicException;
import io.leaderpacer.agent.kafka.FencedStateWriter;
import io.leaderpacer.agent.kafka.GroupMembership;
import io.leaderpacer.engine.ElectionDecision;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Decides whether this agent instance acts: the one instance of its group that owns the state topic's partition
 * and has fenced its predecessor's producer is active; every other instance is a standby. Called a role, not an
 * election: in this code an election is always a partition's leader election.
 *
 * <p>Why this shape: Kafka is the only coordinator every instance already trusts, so the role is a partition of
 * a consumer group ({@link GroupMembership}) and every write, and a recent confirmation before every action, is a
 * transaction of one shared transactional id that also commits the group's offset ({@link FencedStateWriter}).
 * The guarantees, and their limits:
 * <ul>
 *   <li>A live owner loses the role in its own {@code poll} (eager revocation), between two runs, before the group
 *       gives the partition to anyone else.</li>
 *   <li>An owner cut off or paused past the session time-out is fenced twice over: its commits fail once the group
 *       has moved on (generation) and once the successor has called {@code initTransactions} (epoch).</li>
 *   <li>An action needs a successful confirmation started less than {@code L} = session time-out / 3 ago on this
 *       process's monotonic clock; a successor waits {@code L} after its {@code initTransactions} before its
 *       first action. A confirmation that succeeded was committed before the successor's initialisation, so
 *       every action the predecessor checked is checked before the successor's first action. What remains is a
 *       process that stops between that check and the network send of its request (a pause of more than
 *       {@code L} at exactly that point): the request then reaches Kafka late, as any client's can.</li>
 * </ul>
 * The gate memory is not carried over (the agent starts a new one, as a new controller does); the pacing is: the
 * predecessor's {@link HandoverSummary} sets the successor's earliest first run after a capped run.
 *
 * <p>Threading: {@link #poll()}, {@link #checkActive}, {@link #recordRun} and the state writer run on the agent's
 * run thread only (they use the Kafka clients); the accessors may be read from any thread.
 */
public final class ActiveRole implements ActionGuard, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ActiveRole.class);

    /** The group id unless configured. */
    public static final String DEFAULT_GROUP_ID = "leader-pacer";
    /** The session time-out unless configured. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** How long one membership poll may wait. */
    private static final Duration POLL_WAIT = Duration.ofMillis(100);

    /** The agent's Admin client: checks the state topic and names the active instance (not closed here). */
    private final Admin admin;
    /** Bootstrap servers and security settings for the producer created at each takeover. */
    private final Map<String, ?> clientProperties;
    /** The agents' consumer group; also names the transactional id every instance shares. */
    private final String groupId;
    /** The single-partition state topic whose partition is the role. */
    private final String topic;
    /** This instance's name in logs, /status and its successor's log. */
    private final String instanceId;
    /** This machine's name, for the hand-over summary. */
    private final String host;
    /** Bound on each blocking client call. */
    private final Duration timeout;
    /** When this instance may act: within {@code L} of a confirmation, and not before {@code L} after a takeover. */
    private final ConfirmationLease lease;
    /** Wall-clock milliseconds for the hand-over summary and status. */
    private final Time time;
    /** Run on each takeover, before the first run (e.g. reset the state store so it is read again). */
    private final Runnable onTakeover;
    /** This instance's membership of the group: owning the partition is the active role. */
    private final GroupMembership membership;

    /** The producer while active (or after a rebalance, until confirmed again); null as a standby. */
    private FencedStateWriter writer;
    /** The partition was assigned in a poll and the takeover is still to be done. */
    private boolean takeoverDue;
    /** A rebalance ended with this member as a standby: find out who is active. */
    private boolean lookUpActive;
    /** What this instance tells its successor. */
    private HandoverSummary summary;

    /** Whether this instance acts now; read by any thread (status, metrics). */
    private volatile InstanceRole role = InstanceRole.STANDBY;
    /** Wall time of the last role change, for /status. */
    private volatile long sinceMs;
    /** How many times this instance became active, for /status and the agent (a new gate memory each time). */
    private volatile int takeovers;
    /** How many times this instance was deposed while active, for /status. */
    private volatile int depositions;
    /** The active instance as last seen by this one (itself when active); null when unknown. */
    private volatile String activeInstance;
    /** Whether {@link #close()} ran (closing twice is harmless). */
    private boolean closed;
    /** The predecessor's summary read at the last takeover; null before one. */
    private volatile HandoverSummary predecessor;

    ActiveRole(ActiveRoleBuilder b) {
        this.admin = b.admin;
        this.clientProperties = Map.copyOf(b.clientProperties);
        this.groupId = b.groupId;
        this.topic = b.topic;
        this.instanceId = b.instanceId;
        this.host = InstanceIds.host();
        this.timeout = b.timeout;
        this.lease = new ConfirmationLease(b.sessionTimeout.toNanos() / 3, b.time::nanoseconds);
        this.time = b.time;
        this.onTakeover = b.onTakeover;
        this.summary = HandoverSummary.fresh(instanceId, host);
        this.sinceMs = time.milliseconds();
        this.membership = new GroupMembership(
                clientProperties,
                groupId,
                topic,
                b.sessionTimeout,
                InstanceIds.memberClientId(instanceId),
                timeout,
                new Transitions());
    }

    /**
     * A builder for an instance on this cluster.
     *
     * @param admin            the agent's Admin client (to name the active instance; not closed here)
     * @param clientProperties bootstrap servers and security settings for the group's consumer and producer
     */
    public static ActiveRoleBuilder builder(Admin admin, Map<String, ?> clientProperties) {
        return new ActiveRoleBuilder(admin, clientProperties);
    }

    /**
     * Checks the state topic (creating it with safe settings if absent: the group needs its one partition), then
     * joins the group; the role is decided in the following polls.
     *
     * @throws UnsafeTopicException when the state topic exists with settings that could lose state; not joined
     */
    public void join() throws UnsafeTopicException, InterruptedException, ExecutionException, TimeoutException {
        StateTopicSafety.ensureSafe(admin, topic, timeout, time);
        membership.join();
        LOG.info(
                "standby: instance {} joined group {} on topic {}; waiting for the active role",
                instanceId,
                groupId,
                topic);
    }

    /**
     * Takes part in the group (up to 100 ms), then, if the partition was assigned, takes over: fences the
     * predecessor, reads its summary, runs the takeover hook. Never throws for Kafka errors: a failed takeover is
     * retried at the next poll.
     */
    public void poll() {
        membership.poll(POLL_WAIT);
        if (takeoverDue && membership.owns()) {
            takeOver();
        }
        if (lookUpActive && role == InstanceRole.STANDBY) {
            lookUpActive = false;
            lookUpActiveInstance();
        }
    }

    public boolean isActive() {
        return role == InstanceRole.ACTIVE;
    }

    public InstanceRole role() {
        return role;
    }

    public String instanceId() {
        return instanceId;
    }

    /** How many times this instance became active (resuming after a rebalance in which no one else acted is not one). */
    public int takeovers() {
        return takeovers;
    }

    /**
     * How long from now until this instance may run: {@code L} after its takeover, and the predecessor's throttle
     * interval after a capped run. 0 when it may run now (or is not active).
     */
    public long firstRunDelayMs() {
        return lease.firstActionDelayMs();
    }

    /** The predecessor's hand-over summary read at the last takeover, if any. */
    public Optional<HandoverSummary> predecessor() {
        return Optional.ofNullable(predecessor);
    }

    public CoordinationStatus status() {
        return new CoordinationStatus(
                role,
                instanceId,
                groupId,
                sinceMs,
                takeovers,
                depositions,
                role == InstanceRole.ACTIVE ? instanceId : activeInstance);
    }

    @Override
    public void checkActive(String action) {
        if (role != InstanceRole.ACTIVE || writer == null) {
            throw new NotActiveException("instance " + instanceId + " is not the active instance of group " + groupId
                    + "; " + action + " not sent");
        }
        long now = lease.now();
        if (lease.tooEarly(now)) {
            throw new NotActiveException("instance " + instanceId + " took over less than " + lease.lifetimeMs()
                    + " ms ago; " + action + " not sent");
        }
        if (lease.expired(now)) {
            confirm(action);
        }
    }

    /**
     * After each run: a run that sent elections updates the summary (its end, whether it was capped, the next
     * delay) in a fenced transaction, so a successor keeps the pacing.
     */
    public void recordRun(RunRecord run) {
        if (role != InstanceRole.ACTIVE || run.dryRun() || run.results().isEmpty()) {
            return;
        }
        boolean capped = run.decision().map(ElectionDecision::moreWork).orElse(false);
        summary = summary.afterElections(run.finishedAtMs(), capped, run.nextRunDelayMs());
        try {
            confirm("the hand-over summary");
        } catch (NotActiveException e) {
            // Logged where it happened; the agent sees the role and stops.
        }
    }

    /** The state topic's writes for this instance: fenced transactions, refused unless active. */
    public CompactedTopic.Writer stateWriter() {
        return this::writeState;
    }

    private void writeState(String stateTopic, Map<String, String> entries)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (role != InstanceRole.ACTIVE || writer == null) {
            throw new NotActiveException("instance " + instanceId + " is not the active instance of group " + groupId
                    + "; " + entries.size() + " record(s) not written to " + stateTopic);
        }
        long start = lease.now();
        try {
            writer.commit(stateTopic, entries, membership.groupMetadata(), summary.toJson());
            lease.confirmedAt(start);
        } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException e) {
            if (failed(e, "writing " + entries.size() + " record(s) to " + stateTopic)) {
                throw new NotActiveException(
                        "instance " + instanceId + " was deposed; " + entries.size() + " record(s) not written to "
                                + stateTopic,
                        e);
            }
            throw e;
        }
    }

    /** One fenced transaction with no records: proves this instance is still the active one. */
    private void confirm(String forWhat) {
        long start = lease.now();
        try {
            writer.commit(topic, Map.of(), membership.groupMetadata(), summary.toJson());
            lease.confirmedAt(start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed(e, "confirming before " + forWhat);
            throw new NotActiveException("interrupted while confirming the active role; " + forWhat + " not sent", e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            boolean deposed = failed(e, "confirming before " + forWhat);
            throw new NotActiveException(
                    (deposed
                                    ? "instance " + instanceId + " was deposed"
                                    : "could not confirm the active role (" + e + ")")
                            + "; " + forWhat + " not sent",
                    e);
        }
    }

    /**
     * Handles a failed transaction: fencing deposes this instance for good; anything else leaves the role to be
     * confirmed again before the next action (and re-established if the producer is unusable).
     *
     * @return whether this instance was deposed
     */
    private boolean failed(Exception e, String what) {
        lease.expire();
        if (FencedStateWriter.isFencing(e)) {
            depose("fenced while " + what + " (" + FencedStateWriter.rootCause(e) + ")");
            return true;
        }
        LOG.warn(
                "active: {} failed ({}); nothing is sent until the role is confirmed again",
                what,
                FencedStateWriter.rootCause(e));
        if (!writer.abortQuietly()) {
            closeWriter();
            role = InstanceRole.STANDBY;
            sinceMs = time.milliseconds();
            takeoverDue = membership.owns();
        }
        return false;
    }

    private void depose(String why) {
        boolean wasActive = role == InstanceRole.ACTIVE;
        closeWriter();
        role = InstanceRole.STANDBY;
        takeoverDue = false;
        sinceMs = time.milliseconds();
        if (wasActive) {
            depositions++;
            LOG.info("deposed: instance {} {}; stopped acting", instanceId, why);
        }
    }

    private void takeOver() {
        takeoverDue = false;
        if (writer != null && resumed()) {
            return;
        }
        long started = lease.now();
        try {
            writer = new FencedStateWriter(
                    clientProperties,
                    InstanceIds.transactionalId(groupId),
                    membership.partition(),
                    instanceId,
                    InstanceIds.stateClientId(instanceId),
                    timeout);
            writer.initialize();
            long initialised = lease.now();
            HandoverSummary before = membership
                    .committedMetadata()
                    .flatMap(HandoverSummary::parse)
                    .orElse(null);
            summary = before == null
                    ? HandoverSummary.fresh(instanceId, host)
                    : HandoverSummary.fresh(instanceId, host).inheriting(before);
            writer.commit(topic, Map.of(), membership.groupMetadata(), summary.toJson());
            lease.confirmedAt(initialised);
            onTakeover.run();
            long throttleWaitMs = before == null ? 0 : Math.max(0, before.nextRunNotBeforeMs() - time.milliseconds());
            lease.firstActionAfter(initialised, throttleWaitMs);
            predecessor = before;
            takeovers++;
            sinceMs = time.milliseconds();
            activeInstance = instanceId;
            role = InstanceRole.ACTIVE;
            LOG.info(
                    "active: instance {} took over from {} in {} ms (fenced its producer); first run in {} ms{}",
                    instanceId,
                    before == null ? "no earlier instance" : before.instance() + "@" + before.host(),
                    TimeUnit.NANOSECONDS.toMillis(initialised - started),
                    firstRunDelayMs(),
                    before == null || before.lastElectionMs() < 0
                            ? ""
                            : " (its last election batch ended " + Instant.ofEpochMilli(before.lastElectionMs())
                                    + (before.capped() ? ", capped" : ", not capped") + ")");
        } catch (RuntimeException | InterruptedException | ExecutionException | TimeoutException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            closeWriter();
            role = InstanceRole.STANDBY;
            if (FencedStateWriter.isFencing(e)) {
                LOG.info(
                        "standby: instance {} was assigned the active role but another instance fenced it ({})",
                        instanceId,
                        FencedStateWriter.rootCause(e));
            } else {
                takeoverDue = membership.owns();
                LOG.warn(
                        "standby: instance {} could not take over yet ({}); retrying",
                        instanceId,
                        FencedStateWriter.rootCause(e));
            }
        }
    }

    /** After a rebalance that gave the partition back: active again without a new epoch if no one else acted. */
    private boolean resumed() {
        long start = lease.now();
        try {
            writer.commit(topic, Map.of(), membership.groupMetadata(), summary.toJson());
        } catch (RuntimeException | InterruptedException | ExecutionException | TimeoutException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            closeWriter();
            return false;
        }
        lease.confirmedAt(start);
        role = InstanceRole.ACTIVE;
        activeInstance = instanceId;
        LOG.info("active: instance {} kept the active role through a rebalance of group {}", instanceId, groupId);
        return true;
    }

    private void lookUpActiveInstance() {
        String found = membership.owner(admin).map(InstanceIds::instanceOf).orElse(null);
        if (found != null && !found.equals(activeInstance)) {
            LOG.info("standby: instance {} is active (group {}); instance {} waits", found, groupId, instanceId);
        }
        activeInstance = found;
    }

    private void closeWriter() {
        if (writer != null) {
            try {
                writer.close();
            } catch (RuntimeException e) {
                LOG.debug("closing the state producer: {}", e.toString());
            }
            writer = null;
        }
    }

    /** Leaves the group (a standby takes over at once) and closes the producer. Call from the run thread, or after it stopped. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean wasActive = role == InstanceRole.ACTIVE;
        role = InstanceRole.STANDBY;
        closeWriter();
        try {
            membership.close();
        } catch (RuntimeException e) {
            LOG.debug("leaving group {}: {}", groupId, e.toString());
        }
        if (wasActive) {
            LOG.info("standby: instance {} stopped and left group {}", instanceId, groupId);
        }
    }

    /** The group's callbacks, run inside {@link GroupMembership#poll}: losing the role takes effect before returning. */
    private final class Transitions implements GroupMembership.Listener {
        @Override
        public void gained() {
            takeoverDue = true;
        }

        @Override
        public void given(boolean lost) {
            takeoverDue = false;
            if (role == InstanceRole.ACTIVE) {
                role = InstanceRole.STANDBY;
                sinceMs = time.milliseconds();
                if (lost) {
                    depositions++;
                    closeWriter();
                    LOG.info(
                            "deposed: instance {} lost its membership of group {}; stopped acting",
                            instanceId,
                            groupId);
                } else {
                    LOG.info(
                            "standby: group {} is rebalancing; instance {} stopped acting until it is reassigned",
                            groupId,
                            instanceId);
                }
            }
        }

        @Override
        public void standby() {
            if (role == InstanceRole.ACTIVE) {
                given(false);
            }
            closeWriter();
            lookUpActive = true;
        }
    }
}
