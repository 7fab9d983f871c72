package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.kafka.TlsDiagnosis;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TimeoutException;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Why a command could not talk to the cluster, in the operator's terms: the host name that does not resolve, the
 * address that gave no answer in time, a TLS problem ({@link TlsDiagnosis}), or the cluster's own message.
 *
 * <p>Why: Kafka's client reports an unresolvable host as a failure to create the client and a wrong port as a
 * time-out of some internal call; neither names what the operator must fix. Every command that reaches a cluster
 * words these causes the same way.
 */
final class ClusterErrors {

    private ClusterErrors() {}

    /**
     * The problem with this cause, naming the bootstrap servers; never a Java class name, never a secret.
     *
     * @param client the client properties the failed client was made from (for a TLS diagnosis)
     */
    static String describe(
            Throwable e, String bootstrapServers, Duration timeout, SecretRedactor redactor, Map<String, ?> client) {
        Optional<String> unresolved = unresolvable(e, bootstrapServers);
        if (unresolved.isPresent()) {
            return unresolved.get();
        }
        Map<String, String> props = new HashMap<>();
        client.forEach((k, v) -> props.put(k, String.valueOf(v)));
        props.put("bootstrap.servers", bootstrapServers);
        Optional<String> tls = TlsDiagnosis.of(props).explain(e);
        if (tls.isPresent()) {
            return redactor.scrub(tls.get());
        }
        if (isTimeout(e)) {
            return "no answer from the Kafka cluster at " + bootstrapServers + " within " + timeout.toMillis()
                    + " ms; check bootstrap.servers and that the brokers are up";
        }
        Throwable root = e;
        while (root.getCause() != null
                && root.getCause() != root
                && root.getMessage() != null
                && root.getMessage().startsWith("Failed to create new Kafka")) {
            root = root.getCause();
        }
        if (root != e) {
            return "cannot create the Kafka client for " + bootstrapServers + ": " + redactor.describe(root);
        }
        return "the Kafka cluster at " + bootstrapServers + " failed the request: " + redactor.describe(e);
    }

    /**
     * Prints, as one {@code Error: } line, why Kafka's client could not be created from the properties file, and says
     * whose fault it is: {@code true} when the cluster's address does not resolve (the commands exit as for a cluster
     * they cannot reach), {@code false} when the file holds something Kafka rejects, e.g. a bad security.protocol or an
     * unreadable keystore (they exit as for an invalid file).
     */
    static boolean printClientFailure(RuntimeException e, Path config, AgentProperties props, PrintWriter err) {
        SecretRedactor redactor = props.redactor();
        if (isUnresolvable(e, props.bootstrapServers())) {
            err.println("Error: cannot reach the cluster: "
                    + describe(
                            e, props.bootstrapServers(), props.requestTimeout(), redactor, props.clientProperties()));
            return true;
        }
        err.println("Error: cannot create the Kafka client from " + config + ": "
                + TlsDiagnosis.of(props.clientProperties())
                        .explain(e)
                        .map(redactor::scrub)
                        .orElseGet(() -> redactor.describe(e)));
        return false;
    }

    /** Whether no host of the bootstrap servers resolves (Kafka then cannot even create its client). */
    static boolean isUnresolvable(Throwable e, String bootstrapServers) {
        return unresolvable(e, bootstrapServers).isPresent();
    }

    private static Optional<String> unresolvable(Throwable e, String bootstrapServers) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConfigException
                    && String.valueOf(t.getMessage()).contains("No resolvable bootstrap urls")) {
                List<String> hosts = unresolvedHosts(bootstrapServers);
                String which = hosts.isEmpty()
                        ? "no host name"
                        : (hosts.size() == 1 ? "the host name " : "the host names ") + String.join(", ", hosts);
                return Optional.of("bootstrap.servers=" + bootstrapServers + ": " + which
                        + (hosts.size() > 1 ? " do" : " does") + " not resolve (check the name and the host's DNS)");
            }
        }
        return Optional.empty();
    }

    private static List<String> unresolvedHosts(String bootstrapServers) {
        List<String> hosts = new ArrayList<>();
        for (String address : bootstrapServers.split(",")) {
            String a = address.trim();
            int colon = a.lastIndexOf(':');
            String host = colon > 0 ? a.substring(0, colon) : a;
            host = host.replaceAll("^\\[|]$", "");
            if (host.isEmpty()) {
                continue;
            }
            try {
                InetAddress.getByName(host);
            } catch (UnknownHostException ex) {
                hosts.add(host);
            }
        }
        return hosts;
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }
}
