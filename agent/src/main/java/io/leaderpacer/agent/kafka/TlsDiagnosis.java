package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.config.SecretRedactor;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;

import javax.net.ssl.SSLException;
import java.io.FileNotFoundException;
import java.nio.file.NoSuchFileException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what Kafka's client throws on a TLS problem into one line that names the cause, the address and the setting
 * to fix, never a secret and never a Java class name.
 *
 * <p>Why: Kafka reports every failed handshake as {@code SslAuthenticationException: SSL handshake failed} (or
 * {@code Failed to process post-handshake messages} under TLS 1.3), with the reason buried in the JDK's causes
 * ({@code PKIX path building failed}, {@code CertificateExpiredException}, {@code No subject alternative names
 * matching ...}, {@code Received fatal alert: bad_certificate}); a bad key store surfaces as {@code Failed to create new
 * KafkaAdminClient}; and a plaintext client at a TLS port just times out. None of these says which certificate, which
 * file or which setting is wrong. Recognised here (the causes as Kafka 4.3 and Java 17 throw them):
 * <ul>
 *   <li>the broker's certificate not signed by a CA of the trust store (with its subject and issuer, read by
 *       {@link TlsPeerProbe});</li>
 *   <li>the broker's certificate expired or not yet valid (with its validity);</li>
 *   <li>the broker's certificate issued for other names than the address connected to (hostname verification);</li>
 *   <li>the broker refusing the client: no client certificate configured under mutual TLS, or one it does not trust;</li>
 *   <li>a key store or trust store that cannot be loaded (wrong password, missing file);</li>
 *   <li>a {@code PLAINTEXT} or {@code SASL_PLAINTEXT} client at an address that speaks TLS (after a time-out only).</li>
 * </ul>
 */
public final class TlsDiagnosis {

    /** How long the certificate probe may take: a diagnosis must not hold up an error for long. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
    /** The host in the JDK's hostname-verification failures. */
    private static final Pattern MISMATCH = Pattern.compile(
            "No (?:subject alternative names matching IP address|subject alternative DNS name matching|name matching) (\\S+?)\\.? found");
    /** TLS alerts by which a broker refuses the client's certificate (or its absence). */
    private static final List<String> CLIENT_REFUSED = List.of(
            "bad_certificate",
            "certificate_required",
            "certificate_unknown",
            "unknown_ca",
            "certificate_expired",
            "access_denied");

    /** The client properties (bootstrap servers, security protocol, store locations; secrets only to scrub them). */
    private final Map<String, String> client;

    private final SecretRedactor redactor;
    /** Bound on the probe's connection and handshake. */
    private final Duration probeTimeout;

    private TlsDiagnosis(Map<String, String> client, Duration probeTimeout) {
        this.client = Map.copyOf(client);
        this.redactor = SecretRedactor.of(client);
        this.probeTimeout = probeTimeout;
    }

    /** A diagnosis for clients built from these properties. */
    /**
     * As {@link #of(Map)}, for the file's client properties, with {@code clusterLabel} as the bootstrap servers where the
     * properties name none.
     */
    public static TlsDiagnosis of(Map<String, String> clientProperties, String clusterLabel) {
        Map<String, String> client = new HashMap<>(clientProperties);
        client.putIfAbsent("bootstrap.servers", clusterLabel);
        return of(client);
    }

    public static TlsDiagnosis of(Map<String, String> clientProperties) {
        Map<String, String> copy = new HashMap<>();
        clientProperties.forEach((k, v) -> {
            if (k != null && v != null) {
                copy.put(k, v);
            }
        });
        return new TlsDiagnosis(copy, PROBE_TIMEOUT);
    }

    /** The one-line explanation of a TLS problem behind this failure, or empty when it is not one. */
    public Optional<String> explain(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
        Optional<String> store = storeProblem(failure);
        if (store.isPresent()) {
            return store;
        }
        SSLException ssl = find(failure, SSLException.class);
        if (ssl != null) {
            return Optional.of(
                    "TLS handshake with the Kafka cluster at " + bootstrap() + " failed: " + handshake(failure, ssl));
        }
        if (isTimeout(failure) && !protocol().contains("SSL") && !addresses().isEmpty()) {
            // Only the first address: a time-out against a dead host must not grow by a probe per broker.
            String address = addresses().get(0);
            {
                Optional<X509Certificate> cert = TlsPeerProbe.presented(address, probeTimeout);
                if (cert.isPresent()) {
                    return Optional.of(
                            "the broker at " + address + " speaks TLS, but security.protocol is " + protocol()
                                    + ": set security.protocol=" + (protocol().startsWith("SASL") ? "SASL_SSL" : "SSL")
                                    + " and ssl.truststore.location (and ssl.truststore.password) to a trust store with the CA of its"
                                    + " certificate (" + subject(cert.get()) + ")");
                }
            }
        }
        return Optional.empty();
    }

    private String handshake(Throwable failure, SSLException ssl) {
        String all = messages(failure);
        Matcher mismatch = MISMATCH.matcher(all);
        if (mismatch.find()) {
            String host = mismatch.group(1);
            return "the broker's certificate is not issued for " + host + peer(c -> ", it names " + names(c))
                    + ": put a name the certificate lists in bootstrap.servers, or give the broker a certificate for "
                    + host
                    + " (hostname verification is on: ssl.endpoint.identification.algorithm=https)";
        }
        if (find(failure, CertificateExpiredException.class) != null) {
            return "the broker's certificate has expired"
                    + peer(c -> ", valid until " + c.getNotAfter().toInstant())
                    + ": the broker needs a new certificate";
        }
        if (find(failure, CertificateNotYetValidException.class) != null) {
            return "the broker's certificate is not valid yet"
                    + peer(c -> ", valid from " + c.getNotBefore().toInstant())
                    + ": check the clocks of the broker's and this host";
        }
        if (all.contains("unable to find valid certification path")
                || all.contains("PKIX path")
                || all.contains("signature check failed")
                || all.contains("No trusted certificate")) {
            return "the broker's certificate is not trusted"
                    + peer(c -> ", issued by " + c.getIssuerX500Principal().getName()) + ": " + trustStore()
                    + " holds no CA that signed it; add that CA to the trust store";
        }
        String alert = alert(all);
        if (alert != null && CLIENT_REFUSED.contains(alert)) {
            if (!hasKeyStore()) {
                return "the broker requires a client certificate (mutual TLS, alert " + alert
                        + ") and none is configured: set"
                        + " ssl.keystore.location and ssl.keystore.password (or ssl.keystore.type=PEM with"
                        + " ssl.keystore.certificate.chain and ssl.keystore.key)";
            }
            return "the broker refused the client certificate of " + keyStore() + " (alert " + alert + "): it must be"
                    + " signed by a CA in the broker's trust store and valid now";
        }
        if (alert != null) {
            return "the broker ended the handshake (alert " + alert + "): check ssl.protocol, ssl.enabled.protocols and"
                    + " ssl.cipher.suites against the broker's";
        }
        return redactor.describe(ssl);
    }

    /** A key store or trust store Kafka could not load; empty for anything else. */
    private Optional<String> storeProblem(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (t instanceof KafkaException && m != null && m.startsWith("Failed to load SSL keystore ")) {
                String path =
                        m.substring("Failed to load SSL keystore ".length()).replaceFirst(" of type \\S+$", "");
                boolean trust = path.equals(client.get("ssl.truststore.location"));
                String setting = trust ? "ssl.truststore" : "ssl.keystore";
                String why = storeCause(t.getCause(), setting);
                return Optional.of("cannot load the TLS " + (trust ? "trust" : "key") + " store " + path + " ("
                        + setting + ".location) for the Kafka cluster at " + bootstrap() + ": " + why);
            }
        }
        return Optional.empty();
    }

    private String storeCause(Throwable cause, String setting) {
        String all = cause == null ? "" : messages(cause);
        if (all.contains("password was incorrect")
                || all.contains("BadPaddingException")
                || all.contains("failed to decrypt")) {
            return "the password is wrong (" + setting + ".password)";
        }
        if (find(cause, NoSuchFileException.class) != null || find(cause, FileNotFoundException.class) != null) {
            return "no such file";
        }
        if (all.contains("Invalid keystore format")
                || all.contains("DerInputStream")
                || all.contains("toDerInputStream")) {
            return "not a key store of type " + client.getOrDefault(setting + ".type", "JKS") + " (" + setting
                    + ".type)";
        }
        return cause == null ? "unreadable" : redactor.describe(cause);
    }

    private interface CertText {
        String of(X509Certificate c);
    }

    /** ", subject S" plus more about the broker's certificate, when the probe can read it; else nothing. */
    private String peer(CertText more) {
        for (String address : addresses()) {
            Optional<X509Certificate> cert = TlsPeerProbe.presented(address, probeTimeout);
            if (cert.isPresent()) {
                return " (" + subject(cert.get()) + more.of(cert.get()) + ")";
            }
        }
        return "";
    }

    private static String subject(X509Certificate c) {
        return "subject " + c.getSubjectX500Principal().getName();
    }

    private static String names(X509Certificate c) {
        List<String> names = new ArrayList<>();
        try {
            if (c.getSubjectAlternativeNames() != null) {
                c.getSubjectAlternativeNames().forEach(n -> names.add(String.valueOf(n.get(1))));
            }
        } catch (CertificateParsingException e) {
            return "(unreadable names)";
        }
        return names.isEmpty() ? "no alternative names" : String.join(", ", names);
    }

    private String trustStore() {
        String location = client.get("ssl.truststore.location");
        if (location != null) {
            return "the trust store " + location + " (ssl.truststore.location)";
        }
        if (client.containsKey("ssl.truststore.certificates")) {
            return "ssl.truststore.certificates";
        }
        return "the JVM's default trust store (no ssl.truststore.location is set)";
    }

    private boolean hasKeyStore() {
        return client.containsKey("ssl.keystore.location") || client.containsKey("ssl.keystore.key");
    }

    private String keyStore() {
        String location = client.get("ssl.keystore.location");
        return location != null ? location + " (ssl.keystore.location)" : "ssl.keystore.certificate.chain";
    }

    private String protocol() {
        return client.getOrDefault("security.protocol", "PLAINTEXT").trim().toUpperCase(Locale.ROOT);
    }

    private String bootstrap() {
        return client.getOrDefault("bootstrap.servers", "the configured bootstrap servers");
    }

    private List<String> addresses() {
        List<String> out = new ArrayList<>();
        for (String a : bootstrap().split(",")) {
            if (!a.isBlank() && out.size() < 3) {
                out.add(a.trim());
            }
        }
        return out;
    }

    private static String alert(String messages) {
        Matcher m = Pattern.compile("Received fatal alert: (\\w+)").matcher(messages);
        return m.find() ? m.group(1) : null;
    }

    private static boolean isTimeout(Throwable e) {
        return find(e, TimeoutException.class) != null || find(e, java.util.concurrent.TimeoutException.class) != null;
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        int depth = 0;
        for (Throwable t = e; t != null && depth++ < 20; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        int depth = 0;
        for (Throwable t = e; t != null && depth++ < 20; t = t.getCause() == t ? null : t.getCause()) {
            b.append(t.getMessage()).append('\n');
        }
        return b.toString();
    }
}
