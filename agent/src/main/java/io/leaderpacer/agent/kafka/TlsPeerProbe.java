package io.leaderpacer.agent.kafka;

import io.leaderpacer.agent.core.TimeoutMs;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asks a broker address which certificate it presents, to explain a failed TLS handshake in the operator's terms.
 *
 * <p>Why: when Kafka's client rejects a broker's certificate, its exception says why (untrusted, expired, wrong
 * host) but not which certificate: the subject, the issuer, the names and the expiry date are what the operator must
 * compare with the trust store and the broker's set-up. This probe opens one TLS connection of its own, records the
 * certificate chain the broker presents, and closes the connection. It accepts any certificate, because it only
 * reads it, for an error message: it sends no credentials (no client certificate, no request), and nothing it learns
 * is trusted or used for anything else. It also tells whether an address speaks TLS at all, for a client configured
 * for plaintext.
 */
public final class TlsPeerProbe {

    private TlsPeerProbe() {}

    /**
     * The certificate (first of the chain) that {@code host:port} presents in a TLS handshake, or empty when it does
     * not complete the first part of one within {@code timeout} (no TLS there, unreachable).
     */
    public static Optional<X509Certificate> presented(String address, Duration timeout) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        String host = address.substring(0, colon).trim().replaceAll("^\\[|]$", "");
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        AtomicReference<X509Certificate> seen = new AtomicReference<>();
        int ms = TimeoutMs.of(timeout);
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new Recorder(seen)}, null);
            try (Socket plain = new Socket()) {
                plain.connect(new InetSocketAddress(host, port), ms);
                plain.setSoTimeout(ms);
                try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, false)) {
                    tls.startHandshake();
                }
            }
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            // A broker requiring a client certificate ends the handshake after presenting its own: still recorded.
        }
        return Optional.ofNullable(seen.get());
    }

    /** Records the server's chain and accepts it: the probe reads the certificate, it never trusts it. */
    private static final class Recorder implements X509TrustManager {
        private final AtomicReference<X509Certificate> seen;

        Recorder(AtomicReference<X509Certificate> seen) {
            this.seen = seen;
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("client side only");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            if (chain != null && chain.length > 0) {
                seen.set(chain[0]);
            }
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
