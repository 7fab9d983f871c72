package io.leaderpacer.agent.tls;

import io.leaderpacer.embedded.TlsStores;
import io.leaderpacer.testbed.KeyStoreFile;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.security.auth.x500.X500Principal;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PublicKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A throw-away certificate authority and the certificates the TLS tests need, made when the test starts and
 * deleted when it ends; nothing is ever committed.
 *
 * <p>Why generated: committed keys expire, get reused outside tests, and hide what a test relies on. Why
 * BouncyCastle: it builds X.509 certificates with the extensions TLS needs (subject alternative names, key
 * usages) in milliseconds, in the test's own JVM; the JDK has no public API for it. Keys are EC P-256; stores are
 * PKCS12 files in a temporary directory; every store has its own password, so a test can tell which leaked.
 *
 * <p>Public for the multi-process cluster's TLS check in the compatibility tests; the rest is for this package.
 *
 * <p>Principals: the embedded cluster maps a certificate to its common name, so {@code CN=pacer-agent} is {@code
 * User:pacer-agent}.
 */
public final class TestCertificates implements AutoCloseable {

    /** Common name, and so principal, of the brokers' certificate. */
    public static final String BROKER = "broker";
    /** Common name, and so principal, of the cluster's own admin client under mutual TLS. */
    static final String CLUSTER_ADMIN = "cluster-admin";
    /** The organisation of every certificate, so that the principal mapping rule has a comma to stop at. */
    private static final String ORG = ",OU=tests,O=leader-pacer";

    /** Serial numbers: unique within this CA. */
    private final AtomicLong serials = new AtomicLong(1);
    /** Where the stores are written; deleted on close. */
    private final Path dir;

    private final KeyPair caKeys;
    private final X509Certificate caCert;

    private TestCertificates(Path dir, String caName) throws GeneralSecurityException {
        this.dir = dir;
        this.caKeys = newKeyPair();
        X500Name ca = name(caName);
        this.caCert = sign(
                ca,
                caKeys,
                ca,
                caKeys.getPublic(),
                Instant.now().minus(Duration.ofDays(1)),
                Instant.now().plus(Duration.ofDays(2)),
                true,
                null);
    }

    /** A new CA with its own temporary directory. */
    public static TestCertificates create(String caName) {
        try {
            return new TestCertificates(Files.createTempDirectory("leader-pacer-tls-"), caName);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make the test CA", e);
        }
    }

    /** What the embedded cluster needs: the brokers' store, the trust store, and the cluster admin's certificate. */
    TlsStores clusterStores() {
        return new TlsStores(brokerKeyStore(), trustStore(), BROKER, clientKeyStore(CLUSTER_ADMIN), CLUSTER_ADMIN);
    }

    /** The CA's certificate alone, as a trust store. */
    public KeyStoreFile trustStore() {
        return write(
                "truststore-" + shortName(),
                "Trust-" + shortName() + "-Pw",
                store -> store.setCertificateEntry("ca", caCert));
    }

    /** The brokers' key store: {@code CN=broker}, names {@code localhost} and {@code 127.0.0.1}, valid now. */
    public KeyStoreFile brokerKeyStore() {
        return issue(BROKER, "broker", List.of("localhost"), List.of("127.0.0.1"), validNow());
    }

    /** A broker certificate valid until yesterday (it expired). */
    KeyStoreFile expiredBrokerKeyStore() {
        Instant now = Instant.now();
        return issue(BROKER, "expired-broker", List.of("localhost"), List.of("127.0.0.1"), new Instant[] {
            now.minus(Duration.ofDays(3)), now.minus(Duration.ofDays(1))
        });
    }

    /** A broker certificate valid now but issued for another host ({@code kafka.invalid} only). */
    KeyStoreFile otherHostBrokerKeyStore() {
        return issue(BROKER, "other-host-broker", List.of("kafka.invalid"), List.of(), validNow());
    }

    /** A client key store for principal {@code commonName}. */
    KeyStoreFile clientKeyStore(String commonName) {
        return issue(commonName, "client-" + commonName, List.of(), List.of(), validNow());
    }

    /** A client certificate and its unencrypted PKCS#8 key, in PEM, for {@code ssl.keystore.type=PEM}. */
    PemIdentity clientPem(String commonName) {
        try {
            KeyPair keys = newKeyPair();
            Instant[] validity = validNow();
            X509Certificate cert =
                    sign(issuer(), caKeys, name(commonName), keys.getPublic(), validity[0], validity[1], false, null);
            return new PemIdentity(
                    pem(cert) + pem(caCert), pem(new JcaPKCS8Generator(keys.getPrivate(), null).generate()));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot make the PEM client certificate of " + commonName, e);
        }
    }

    /** The subject of the certificates this CA issues to {@code commonName}, as Java and Kafka print it. */
    public static String subject(String commonName) {
        return "CN=" + commonName + ORG;
    }

    /** A client identity in PEM: the certificate chain and the private key. */
    record PemIdentity(String certificateChain, String privateKey) {
        @Override
        public String toString() {
            return "PemIdentity[key hidden]";
        }
    }

    private KeyStoreFile issue(
            String commonName, String file, List<String> dnsNames, List<String> ips, Instant[] validity) {
        try {
            KeyPair keys = newKeyPair();
            GeneralNames names = null;
            if (!dnsNames.isEmpty() || !ips.isEmpty()) {
                names = new GeneralNames(Stream.concat(
                                dnsNames.stream().map(n -> new GeneralName(GeneralName.dNSName, n)),
                                ips.stream().map(n -> new GeneralName(GeneralName.iPAddress, n)))
                        .toArray(GeneralName[]::new));
            }
            X509Certificate cert =
                    sign(issuer(), caKeys, name(commonName), keys.getPublic(), validity[0], validity[1], false, names);
            String password = "Store-" + file + "-Pw";
            return write(
                    file,
                    password,
                    store -> store.setKeyEntry(
                            commonName, keys.getPrivate(), password.toCharArray(), new Certificate[] {cert, caCert}));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue the certificate of " + commonName, e);
        }
    }

    /** The distinguished name {@code CN=<cn>,OU=tests,O=leader-pacer} in the order Java (and Kafka) print it. */
    private static X500Name name(String commonName) {
        return X500Name.getInstance(new X500Principal(subject(commonName)).getEncoded());
    }

    private X500Name issuer() {
        return X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded());
    }

    private X509Certificate sign(
            X500Name issuer,
            KeyPair issuerKeys,
            X500Name subject,
            PublicKey subjectKey,
            Instant notBefore,
            Instant notAfter,
            boolean ca,
            GeneralNames names)
            throws GeneralSecurityException {
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                    issuer,
                    BigInteger.valueOf(serials.getAndIncrement()),
                    Date.from(notBefore),
                    Date.from(notAfter),
                    subject,
                    subjectKey);
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(subjectKey));
            if (ca) {
                b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                b.addExtension(
                        Extension.authorityKeyIdentifier,
                        false,
                        ext.createAuthorityKeyIdentifier(issuerKeys.getPublic()));
                b.addExtension(
                        Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                }));
            }
            if (names != null) {
                b.addExtension(Extension.subjectAlternativeName, false, names);
            }
            return new JcaX509CertificateConverter()
                    .getCertificate(
                            b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
        } catch (OperatorCreationException | IOException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static Instant[] validNow() {
        Instant now = Instant.now();
        return new Instant[] {now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1))};
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private interface StoreFiller {
        void fill(KeyStore store) throws GeneralSecurityException;
    }

    private KeyStoreFile write(String name, String password, StoreFiller filler) {
        Path path = dir.resolve(name + ".p12");
        try (OutputStream out = Files.newOutputStream(path)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            filler.fill(store);
            store.store(out, password.toCharArray());
            return new KeyStoreFile(path, password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot write " + path, e);
        }
    }

    private String shortName() {
        return caCert.getSubjectX500Principal()
                .getName()
                .replaceAll("^CN=([^,]+),.*$", "$1")
                .replaceAll("[^A-Za-z0-9]", "");
    }

    private static String pem(Object o) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            w.writeObject(o);
        }
        return s.toString();
    }

    /** Deletes every store. */
    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temporary directory: the system cleans it up eventually.
        }
    }
}
