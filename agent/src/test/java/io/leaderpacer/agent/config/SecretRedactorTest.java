package io.leaderpacer.agent.config;

import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;

class SecretRedactorTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"alice\" password=\"alice-secret-pw\";";

    @Test
    void securityKeys_areSecret_connectionKeysAreNot() {
        assertThat(SecretRedactor.isSecret("ssl.truststore.password")).isTrue();
        assertThat(SecretRedactor.isSecret("ssl.keystore.password")).isTrue();
        assertThat(SecretRedactor.isSecret("ssl.key.password")).isTrue();
        assertThat(SecretRedactor.isSecret("ssl.keystore.key")).isTrue();
        assertThat(SecretRedactor.isSecret("sasl.jaas.config")).isTrue();
        assertThat(SecretRedactor.isSecret("basic.auth.user.info")).isTrue();
        assertThat(SecretRedactor.isSecret("sasl.oauthbearer.client.credentials.client.secret"))
                .isTrue();
        assertThat(SecretRedactor.isSecret("bootstrap.servers")).isFalse();
        assertThat(SecretRedactor.isSecret("security.protocol")).isFalse();
        assertThat(SecretRedactor.isSecret("ssl.truststore.location")).isFalse();
    }

    @Test
    void inlinePemKey_isScrubbedWholeAndLineByLine() {
        String line1 = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAbCdEfGhIjKlMnOp";
        String line2 = "QrStUvWxYz0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR";
        String pem = "-----BEGIN PRIVATE KEY-----\n" + line1 + "\n" + line2 + "\n-----END PRIVATE KEY-----\n";
        SecretRedactor r = SecretRedactor.of(Map.of("ssl.keystore.key", pem, "ssl.keystore.type", "PEM"));

        assertThat(r.scrub("key: " + pem)).doesNotContain(line1).doesNotContain(line2);
        assertThat(r.scrub("a piece of it: " + line2 + " (line 2)")).isEqualTo("a piece of it: [redacted] (line 2)");
        assertThat(r.scrub("ssl.keystore.type = PEM")).isEqualTo("ssl.keystore.type = PEM");
    }

    @Test
    void redactedMap_keepsOrderAndHidesSecretValues() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("bootstrap.servers", "b:9092");
        props.put("sasl.jaas.config", JAAS);
        props.put("ssl.truststore.password", "changeit-123");
        assertThat(SecretRedactor.redact(props))
                .containsExactly(
                        Map.entry("bootstrap.servers", "b:9092"),
                        Map.entry("sasl.jaas.config", SecretRedactor.REDACTED),
                        Map.entry("ssl.truststore.password", SecretRedactor.REDACTED));
    }

    @Test
    void scrub_removesKnownValuesAndJaasPasswordsFromFreeText() {
        SecretRedactor r = SecretRedactor.of(Map.of("sasl.jaas.config", JAAS, "ssl.key.password", "k3y-pass"));
        String scrubbed = r.scrub("login failed for alice-secret-pw; key k3y-pass; echo: " + JAAS);
        assertThat(scrubbed)
                .doesNotContain("alice-secret-pw")
                .doesNotContain("k3y-pass")
                .startsWith("login failed for ");
    }

    @Test
    void scrub_hidesJaasPasswordOptionEvenWhenTheValueIsUnknown() {
        String scrubbed = SecretRedactor.none().scrub("bad JAAS: Module required user_bob=\"x\" password='p4ss-word';");
        assertThat(scrubbed).doesNotContain("p4ss-word").contains("password=" + SecretRedactor.REDACTED);
    }

    @Test
    void describe_unwrapsExecutionExceptionAndScrubs() {
        SecretRedactor r = SecretRedactor.of(Map.of("ssl.truststore.password", "tr-pass-99"));
        String line =
                r.describe(new ExecutionException(new IllegalStateException("cannot open store with tr-pass-99")));
        assertThat(line).isEqualTo("cannot open store with " + SecretRedactor.REDACTED);
    }

    @Test
    void describe_namesNoJavaClass_evenWithoutAMessage() {
        SecretRedactor r = SecretRedactor.none();
        assertThat(r.describe(new ExecutionException(new AgentConfigException("agent.properties: key x: bad"))))
                .isEqualTo("agent.properties: key x: bad");
        assertThat(r.describe(new TimeoutException((String) null))).isEqualTo("timed out");
        assertThat(r.describe(new NullPointerException()))
                .doesNotContain("Exception")
                .doesNotContain("java.");
    }

    @Test
    void scrubbedException_keepsTypeAndStackButNotTheSecret() {
        SecretRedactor r = SecretRedactor.of(Map.of("ssl.key.password", "k3y-pass"));
        IllegalStateException cause = new IllegalStateException("inner k3y-pass");
        RuntimeException outer = new RuntimeException("outer k3y-pass", cause);
        Throwable copy = r.scrubbed(outer);
        assertThat(copy.getMessage()).isEqualTo("java.lang.RuntimeException: outer " + SecretRedactor.REDACTED);
        assertThat(copy.getStackTrace()).isEqualTo(outer.getStackTrace());
        assertThat(copy.getCause().getMessage())
                .isEqualTo("java.lang.IllegalStateException: inner " + SecretRedactor.REDACTED);
    }

    @Property(tries = 200)
    void anySecretValue_neverSurvivesScrubbing(
            @ForAll @AlphaChars @StringLength(min = 3, max = 30) String secret,
            @ForAll @StringLength(max = 40) String before,
            @ForAll @StringLength(max = 40) String after) {
        // A secret that is part of the marker itself ("dac" in "[redacted]") would be reported by the marker.
        Assume.that(!SecretRedactor.REDACTED.contains(secret));
        SecretRedactor r = SecretRedactor.of(Map.of("x.password", secret));
        assertThat(r.scrub(before + secret + after)).doesNotContain(secret);
    }
}
