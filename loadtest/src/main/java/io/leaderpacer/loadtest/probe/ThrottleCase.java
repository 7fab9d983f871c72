package io.leaderpacer.loadtest.probe;

import java.util.Objects;
import java.util.Optional;

/**
 * One experiment of the probe: a restart with a backlog, under one throttle (or none), then the throttle's removal
 * and a second restart that shows whether the removal took.
 *
 * @param name     short, unique: how the command line and the report name it
 * @param throttle the throttle, or none (the unthrottled reference)
 * @param cpuCap   the restarted broker's CPU quota in cores, or none
 * @param removal  how the throttle is removed before the second restart; {@link Removal#NONE} skips that restart
 * @param stepMs   0, or how often the rate steps between the throttle's rate and half of it once the broker is
 *                 unfenced, as adaptive pacing moves it: what Kafka's quota window does with a rate that changes
 */
public record ThrottleCase(
        String name, Optional<ThrottleSetup> throttle, Optional<Double> cpuCap, Removal removal, long stepMs) {

    /** How a throttle is removed. */
    public enum Removal {
        /** Not removed, and no second restart: the next case starts from a clean cluster anyway. */
        NONE,
        /** Only the topics' replica lists are deleted. */
        LISTS,
        /** Only the rate is deleted. */
        RATE,
        /** Both. */
        BOTH,
        /** Both, and the topic is deleted and created again under the same name (as the load test does). */
        BOTH_SAME_TOPIC_RECREATED
    }

    public ThrottleCase {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(throttle, "throttle");
        Objects.requireNonNull(cpuCap, "cpuCap");
        Objects.requireNonNull(removal, "removal");
        if (throttle.isEmpty() && removal != Removal.NONE) {
            throw new IllegalArgumentException("case " + name + ": nothing to remove without a throttle");
        }
        if (stepMs < 0 || (stepMs > 0 && throttle.isEmpty())) {
            throw new IllegalArgumentException(
                    "case " + name + ": a rate steps only under a throttle, every 0 ms or more");
        }
    }
}
