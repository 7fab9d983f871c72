package io.leaderpacer.agent.coordination;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Objects;
import java.util.Optional;

/**
 * What an active instance tells its successor, carried in the metadata string of the group offset that every
 * fenced transaction commits (a few hundred bytes; Kafka keeps up to {@code offset.metadata.max.bytes}, 4096).
 *
 * <p>Why: gate memory is rebuilt from scratch on takeover, as after a controller failover, but the throttle must
 * not be: a successor that ran at once after a capped run would double the election rate the operator set. The
 * successor's first run is therefore not earlier than {@link #nextRunNotBeforeMs()}. Times are wall-clock
 * milliseconds of the writer's host, so the hand-over is only as exact as the hosts' clocks agree.
 *
 * @param instance          the writer's instance id
 * @param host              the writer's host name
 * @param lastElectionMs    when the writer's last run that sent elections ended (wall clock), or -1 if none
 * @param capped            whether that run hit {@code max.per.run} (more work was left)
 * @param nextRunDelayMs    the delay the writer's schedule chose after that run (the throttle interval when capped)
 */
public record HandoverSummary(String instance, String host, long lastElectionMs, boolean capped, long nextRunDelayMs) {

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public HandoverSummary {
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(host, "host");
    }

    /** A summary of an instance that has not sent elections yet. */
    public static HandoverSummary fresh(String instance, String host) {
        return new HandoverSummary(instance, host, -1, false, 0);
    }

    /** This instance's summary, carrying over the pacing of a predecessor (so a crash before its first run keeps it). */
    public HandoverSummary inheriting(HandoverSummary predecessor) {
        return new HandoverSummary(
                instance, host, predecessor.lastElectionMs, predecessor.capped, predecessor.nextRunDelayMs);
    }

    /** After a run that sent elections. */
    public HandoverSummary afterElections(long finishedAtMs, boolean wasCapped, long delayMs) {
        return new HandoverSummary(instance, host, finishedAtMs, wasCapped, delayMs);
    }

    /**
     * The earliest wall-clock time a successor may run: the throttle interval after a capped run; no constraint
     * (0) when the last run was not capped, since then a run may come at any time, as after a controller failover.
     */
    public long nextRunNotBeforeMs() {
        return capped && lastElectionMs >= 0 ? lastElectionMs + nextRunDelayMs : 0;
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render " + this, e);
        }
    }

    /**
     * Reads a summary written by any version of the agent; empty for no metadata or metadata that is not a
     * summary (e.g. an offset committed by a tool), so a takeover never fails on it.
     */
    public static Optional<HandoverSummary> parse(String json) {
        if (json == null || json.isBlank()) {
            return Optional.empty();
        }
        try {
            HandoverSummary s = JSON.readValue(json, HandoverSummary.class);
            return s.instance() == null ? Optional.empty() : Optional.of(s);
        } catch (JsonProcessingException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
