package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.core.PacingReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Logs pacing's reports as an operator reads a log: every change, and a note or a problem when it first appears. A
 * look every 2 s would otherwise repeat the same line all through a recovery, and the one line that matters would be
 * lost among hundreds.
 */
final class ReportLog {

    /** Under the loop's name: these are its lines, and operators filter on it. */
    private static final Logger LOG = LoggerFactory.getLogger(PacingLoop.class);

    /** The notes and problem of the last look, so that a line repeated look after look is logged once. */
    private Set<String> logged = Set.of();

    /**
     * Logs one look's report.
     *
     * @param disabled why pacing is off, already logged as an error when it was turned off: not repeated as a warning
     */
    void log(PacingReport r, Optional<String> disabled) {
        if (!r.changes().isEmpty()) {
            LOG.info("catch-up pacing: {}", String.join("; ", r.changes()));
        }
        Optional<String> problem = r.problem().filter(p -> disabled.isEmpty() || !p.equals(disabled.get()));
        Set<String> now = new HashSet<>(r.notes());
        problem.ifPresent(now::add);
        for (String n : r.notes()) {
            if (!logged.contains(n)) {
                LOG.info("catch-up pacing: {}", n);
            }
        }
        problem.filter(p -> !logged.contains(p)).ifPresent(LOG::warn);
        logged = now;
        r.brokers().forEach(b -> LOG.debug("catch-up pacing: broker {} {}: {}", b.broker(), b.phase(), b.reason()));
    }
}
