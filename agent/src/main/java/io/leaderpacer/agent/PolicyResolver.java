package io.leaderpacer.agent;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.ConfigSource;
import io.leaderpacer.engine.config.ConfigKey;
import io.leaderpacer.engine.config.PacerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Works out the policy for each run: the base configuration (the properties file, re-read) with the dynamic
 * overrides on top; on any problem, the previous run's policy.
 *
 * <p>Why: every policy key is dynamic (a new value applies on the next run), and a bad value, whether an edit of
 * the file or a stored override, must be reported with its key, value and allowed range while the previous
 * configuration stays in force: nothing half-applied, nothing lost. A problem is logged once when it appears
 * and once when it clears, not on every run; each change of the effective policy is logged key by key.
 */
final class PolicyResolver {

    private static final Logger LOG = LoggerFactory.getLogger(PolicyResolver.class);

    /** The base configuration (properties file), read on each run. */
    private final Callable<PacerConfig> base;
    /** The dynamic overrides, read on each run. */
    private final ConfigSource overrides;
    /** Scrubs secrets from error messages before they are logged. */
    private final SecretRedactor redactor;
    /** The policy in force: the last one resolved without a problem. */
    private PacerConfig current;
    /** The problem of the last resolution, if any: kept to log a problem once, and shown by /status. */
    private String problem;

    PolicyResolver(Callable<PacerConfig> base, ConfigSource overrides, SecretRedactor redactor) {
        this.base = Objects.requireNonNull(base, "base");
        this.overrides = Objects.requireNonNull(overrides, "overrides");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    /**
     * The policy for this run; never throws.
     *
     * <p>Before any policy could be resolved it falls back to the engine's defaults (reported as a problem).
     */
    synchronized PacerConfig resolve() {
        PacerConfig next;
        String stage = "invalid base configuration";
        try {
            PacerConfig fromBase = base.call();
            stage = "cannot read the dynamic overrides";
            Map<String, String> dynamic = overrides.overrides();
            stage = "invalid dynamic overrides";
            next = dynamic.isEmpty() ? fromBase : fromBase.withUpdates(dynamic);
        } catch (Exception e) {
            String message = stage + ": " + redactor.describe(e);
            if (!message.equals(problem)) {
                LOG.warn("{}; keeping the previous configuration", message);
            }
            problem = message;
            if (current == null) {
                current = PacerConfig.defaults();
            }
            return current;
        }
        if (problem != null) {
            LOG.info("configuration problem cleared ({})", problem);
            problem = null;
        }
        if (current == null) {
            LOG.info("policy in force: {}", next.toMap());
        } else if (!current.equals(next)) {
            logChanges(current, next);
        }
        current = next;
        return current;
    }

    /** The problem that kept the previous configuration in force at the last resolution, if any. */
    synchronized Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    private static void logChanges(PacerConfig before, PacerConfig after) {
        for (ConfigKey k : ConfigKey.values()) {
            String was = before.valueOf(k);
            String now = after.valueOf(k);
            if (!was.equals(now)) {
                LOG.info("configuration change applies from this run: {} = {} (was {})", k.key(), now, was);
            }
        }
    }
}
