package io.leaderpacer.agent;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.kafka.AccessDenied;
import io.leaderpacer.agent.kafka.AutoRebalanceCheck;
import io.leaderpacer.agent.kafka.AutoRebalanceEnabledException;
import io.leaderpacer.agent.kafka.ClusterVersionCheck;
import io.leaderpacer.agent.kafka.MissingPermissionException;
import io.leaderpacer.agent.kafka.PermissionCheck;
import io.leaderpacer.agent.kafka.TlsDiagnosis;
import io.leaderpacer.agent.kafka.TlsProblemException;
import io.leaderpacer.agent.kafka.UnsupportedClusterException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One attempt to make contact with the cluster before the first run, and the verdict: run, retry later, or
 * refuse.
 *
 * <p>Why: the agent must not start deciding until it knows the controller's own rebalancing is off (the two would
 * fight), and a cluster that cannot be reached yet is not an error to crash on but a reason to wait, with one
 * clear log line per attempt and no stack traces. Each attempt starts with a cheap request bounded by a short
 * contact time-out, so that a wrong address is reported within seconds, not after the 30 s request time-out. Being refused access (authentication, ACLs) is final: retrying
 * cannot fix it. The ACLs are checked first, all at once ({@link PermissionCheck}), so that an operator learns
 * every missing one, and how to grant it, from the first attempt instead of one per restart. A cluster the agent
 * cannot serve (ZooKeeper mode, or an API of its runs missing: {@link ClusterVersionCheck}) is refused too, in one
 * line naming the cluster's version and what is missing: no later attempt could change that.
 */
final class StartupCheck {

    private static final Logger LOG = LoggerFactory.getLogger(StartupCheck.class);

    /** How long an attempt waits for the cluster's first answer unless configured: a few seconds. */
    static final Duration DEFAULT_CONTACT_TIMEOUT = Duration.ofSeconds(5);

    /** The first, cheap request of an attempt: it fails within its time-out when no broker answers. */
    @FunctionalInterface
    interface ContactProbe {
        void contact(Duration timeout) throws Exception;
    }

    /** What one attempt found: go on, try again, or refuse. */
    sealed interface AttemptResult permits Ready, Retry, Refused {}

    /** Contact made and the check passed (or was overridden). */
    record Ready(int brokers) implements AttemptResult {}

    /** The cluster could not be reached; try again after {@code delayMs}. */
    record Retry(long delayMs, String problem) implements AttemptResult {}

    /** The agent must not run; {@code cause} completes the agent's termination. */
    record Refused(Throwable cause) implements AttemptResult {}

    private final ContactProbe probe;
    /** The probe's time-out. */
    private final Duration contactTimeout;

    private final AutoRebalanceCheck check;
    /** KRaft mode and the APIs of a run, checked around the ACLs (the API probes need them). */
    private final ClusterVersionCheck versions;
    /** The agent's ACLs, checked before anything else. */
    private final PermissionCheck permissions;
    /** Operator override: run even with the controller's rebalancing on. */
    private final boolean allowAutoRebalance;

    private final StartupBackoff backoff;
    private final SecretRedactor redactor;
    /** The cluster's name in messages. */
    private final String clusterLabel;
    /** Explains TLS failures (untrusted or expired certificates, plaintext against TLS, ...) in one line. */
    private final TlsDiagnosis tls;

    StartupCheck(
            ContactProbe probe,
            Duration contactTimeout,
            ClusterVersionCheck versions,
            PermissionCheck permissions,
            AutoRebalanceCheck check,
            boolean allowAutoRebalance,
            StartupBackoff backoff,
            SecretRedactor redactor,
            String clusterLabel,
            TlsDiagnosis tls) {
        this.probe = Objects.requireNonNull(probe, "probe");
        this.versions = Objects.requireNonNull(versions, "versions");
        this.contactTimeout = Objects.requireNonNull(contactTimeout, "contactTimeout");
        this.permissions = Objects.requireNonNull(permissions, "permissions");
        this.check = Objects.requireNonNull(check, "check");
        this.allowAutoRebalance = allowAutoRebalance;
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        this.clusterLabel = Objects.requireNonNull(clusterLabel, "clusterLabel");
        this.tls = Objects.requireNonNull(tls, "tls");
    }

    /**
     * Runs attempt number {@code attempt} (1 = the first) and logs its outcome in one line.
     *
     * @throws InterruptedException when the agent is being closed
     */
    AttemptResult attempt(int attempt) throws InterruptedException {
        if (attempt == 1) {
            LOG.info(
                    "connecting to the Kafka cluster at {} (waiting up to {} s for an answer)",
                    clusterLabel,
                    seconds(contactTimeout.toMillis()));
        }
        AutoRebalanceCheck.Result result;
        Optional<ClusterVersionCheck.ClusterVersion> version = Optional.empty();
        try {
            probe.contact(contactTimeout);
            ClusterVersionCheck.ClusterVersion seen = versions.detect();
            version = Optional.of(seen);
            ClusterVersionCheck.requireKraft(seen, clusterLabel);
            permissions.check();
            versions.requireApis(seen, clusterLabel);
            result = check.check();
        } catch (InterruptedException e) {
            throw e;
        } catch (UnsupportedClusterException e) {
            LOG.error("refusing to start: {}", e.getMessage());
            return new Refused(e);
        } catch (Exception e) {
            return failed(attempt, e, version);
        }
        return rebalanceChecked(result, version);
    }

    /**
     * What a failed attempt means: a refusal (a missing API, a denied permission, a TLS or SASL problem, which only
     * an edit fixes) or a retry after the back-off (anything else, such as brokers not up yet).
     */
    private AttemptResult failed(int attempt, Exception e, Optional<ClusterVersionCheck.ClusterVersion> version) {
        if (e.getCause() instanceof UnsupportedVersionException unsupported) {
            UnsupportedClusterException refusal = ClusterVersionCheck.missingApi(version, clusterLabel, unsupported);
            LOG.error("refusing to start: {}", redactor.scrub(refusal.getMessage()));
            return new Refused(refusal);
        }
        Optional<MissingPermissionException> denied = AccessDenied.explain(e);
        if (denied.isPresent()) {
            LOG.error("cannot start: {}", redactor.scrub(denied.get().getMessage()));
            return new Refused(denied.get());
        }
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        // A TLS problem (an untrusted, expired or misnamed certificate, a missing client certificate, a plaintext
        // client at a TLS port) is final: only an edit of the file or of the brokers' certificates fixes it.
        Optional<String> tlsProblem =
                cause instanceof AuthenticationException || isTimeout(e) ? tls.explain(e) : Optional.empty();
        if (tlsProblem.isPresent()) {
            String message = redactor.scrub(tlsProblem.get());
            LOG.error("cannot start: {}", message);
            LOG.debug("start-up attempt {} failed", attempt, redactor.scrubbed(e));
            return new Refused(new TlsProblemException(message, redactor.scrubbed(cause)));
        }
        if (cause instanceof AuthenticationException) {
            LOG.error(
                    "cannot start: {}. Check the SASL/TLS settings and credentials in the properties file",
                    redactor.describe(cause));
            return new Refused(cause);
        }
        if (cause instanceof AuthorizationException) {
            // A refusal of a kind the agent does not expect (none of its documented resources): still final.
            LOG.error("cannot start: {} (see docs/AGENT.md, \"Permissions (ACLs)\")", redactor.describe(cause));
            return new Refused(cause);
        }
        long delay = backoff.delayMs(attempt);
        String problem = "cannot reach the Kafka cluster at " + clusterLabel + " (attempt " + attempt + "): "
                + (isTimeout(e)
                        ? "no answer within " + seconds(contactTimeout.toMillis())
                                + " s; check bootstrap.servers and that the brokers are up"
                        : redactor.describe(e));
        LOG.warn("{}; retrying in {} s", problem, seconds(delay));
        LOG.debug("start-up attempt {} failed", attempt, redactor.scrubbed(e));
        return new Retry(delay, problem);
    }

    /** Ready, unless a broker has {@code auto.leader.rebalance.enable=true} and that was not allowed. */
    private AttemptResult rebalanceChecked(
            AutoRebalanceCheck.Result result, Optional<ClusterVersionCheck.ClusterVersion> version) {
        if (result.anyEnabled()) {
            if (!allowAutoRebalance) {
                AutoRebalanceEnabledException refusal =
                        new AutoRebalanceEnabledException(result.enabledOn(), clusterLabel);
                LOG.error(refusal.getMessage());
                return new Refused(refusal);
            }
            LOG.warn(
                    "auto.leader.rebalance.enable=true on broker(s) {}; running anyway (--allow-auto-rebalance):"
                            + " Kafka's controller will also move leaders back, undoing the gate",
                    result.enabledOn());
        } else {
            LOG.info(
                    "connected to {}: {}, {} brokers, auto.leader.rebalance.enable=false on all",
                    clusterLabel,
                    version.map(ClusterVersionCheck.ClusterVersion::describe).orElse("Kafka"),
                    result.brokers().size());
        }
        return new Ready(result.brokers().size());
    }

    /** What /status shows while an attempt is waiting for its first answer. */
    String pending(int attempt) {
        return "connecting to the Kafka cluster at " + clusterLabel + ": no answer yet (attempt " + attempt + ")";
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1f", ms / 1000.0);
    }
}
