package io.leaderpacer.agent.kafka;

import ch.qos.logback.classic.Level;
import io.leaderpacer.agent.AgentAssembly;
import io.leaderpacer.agent.CapturedLogs;
import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.core.AgentState;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.embedded.EmbeddedKafkaCluster;
import io.leaderpacer.engine.config.PacerConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * Least privilege on a real cluster with SASL/SCRAM-SHA-512 and ACLs enforced (one cluster for the class; each
 * case starts from no ACL for the agent's user and grants what it needs).
 *
 * <p>Proves that the documented list ({@link AgentPermissions}) is exact: with it the agent does its whole job, and
 * without any one entry it refuses to run and names that entry. Along the way: the client security settings of the
 * properties file reach every Kafka client the agent creates unchanged, and no password appears in a log line or
 * in the exception the agent ends with.
 */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LeastPrivilegeClusterTest {

    private static final String USER = "pacer-agent";
    private static final String PASSWORD = "Agent-Passw0rd-4711";
    private static final String PRINCIPAL = "User:" + USER;
    private static final String TOPIC = "payments";
    private static final String STATE_TOPIC = OrderStateStore.DEFAULT_TOPIC;
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** TLS settings that a plaintext-SASL connection ignores, to see that they reach the clients unchanged. */
    private static final Map<String, String> INERT_TLS = Map.of(
            "ssl.truststore.location", "/nonexistent/truststore.p12",
            "ssl.truststore.type", "PKCS12",
            "ssl.truststore.password", "Truststore-Secret-99",
            "ssl.endpoint.identification.algorithm", "https",
            "ssl.protocol", "TLSv1.3");

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder()
                .brokers(3)
                .saslScramWithAcls()
                .build()
                .start();
        cluster.accessControl().createScramUser(USER, PASSWORD);
        cluster.createTopic(TOPIC, 6, 3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void noAclForTheAgent() {
        cluster.accessControl().revokeAll(PRINCIPAL);
    }

    @Test
    void documentedAcls_sufficeForStartElectionAfterRestartAndReorderAndRestore() throws Exception {
        cluster.accessControl().grant(bindings(AgentPermissions.REQUIRED));
        deleteStateTopic(); // so the agent must create it (CREATE)
        Map<Integer, List<Integer>> original = replicaOrders();
        AtomicReference<PacerConfig> policy = new AtomicReference<>(PacerConfig.defaults());
        try (CapturedLogs clientConfigs = CapturedLogs.of("org.apache.kafka.common.config.AbstractConfig", Level.INFO);
                SecuredAgent a = new SecuredAgent(PASSWORD, policy)) {
            a.agent.start();
            await().atMost(WAIT)
                    .until(() -> a.agent.state() != AgentState.STARTING && a.agent.state() != AgentState.NEW);
            assertThat(a.agent.state()).as("%s", a.agent.termination()).isIn(AgentState.STANDBY, AgentState.ACTIVE);
            await().atMost(WAIT).until(() -> a.agent.state() == AgentState.ACTIVE);

            // A broker restart: leadership stays off it until the agent elects the preferred replicas.
            cluster.stopBroker(1);
            cluster.startBroker(1);
            await().atMost(WAIT)
                    .until(() -> partitions().stream().allMatch(p -> p.isr().size() == 3));
            runUntil(
                    a.agent,
                    "preferred leaders elected after the restart",
                    () -> partitions().stream()
                            .allMatch(
                                    p -> p.leader().id() == p.replicas().get(0).id()));

            // KIP-491: broker 2 deprioritized, its partitions reordered (written ahead to the state topic) ...
            policy.set(PacerConfig.defaults().with("preferred.leader.deprioritized.list", "2"));
            runUntil(
                    a.agent,
                    "broker 2 last in every replica order",
                    () -> replicaOrders().values().stream().allMatch(r -> r.get(2) == 2));
            // ... and restored once it leaves the list.
            policy.set(PacerConfig.defaults());
            runUntil(
                    a.agent,
                    "every original order restored",
                    () -> replicaOrders().equals(original));
            assertThat(a.agent.termination()).isNotDone();

            String dumps = clientConfigs.text();
            for (String client : List.of("AdminClientConfig", "ProducerConfig", "ConsumerConfig")) {
                String dump = configDump(dumps, client);
                assertThat(dump)
                        .as(client)
                        .contains(
                                "security.protocol = SASL_PLAINTEXT",
                                "sasl.mechanism = SCRAM-SHA-512",
                                "sasl.jaas.config = [hidden]",
                                "ssl.truststore.password = [hidden]");
                INERT_TLS.forEach((k, v) -> {
                    if (!k.contains("password")) {
                        assertThat(dump).as(client).contains(k + " = " + v);
                    }
                });
            }
            assertThat(dumps).doesNotContain(PASSWORD).doesNotContain(INERT_TLS.get("ssl.truststore.password"));
        }
    }

    static List<RequiredPermission> documented() {
        return AgentPermissions.REQUIRED;
    }

    @ParameterizedTest
    @MethodSource("documented")
    void documentedAclMissing_refusesToRunNamingIt(RequiredPermission withheld) throws Exception {
        List<RequiredPermission> granted = new ArrayList<>(AgentPermissions.REQUIRED);
        granted.remove(withheld);
        cluster.accessControl().grant(bindings(granted));
        if (withheld.operation() == AclOperation.CREATE) {
            deleteStateTopic(); // CREATE is needed only while the state topic does not exist
        } else {
            ensureStateTopic(); // the operations on it can only be checked when it exists
        }
        try (CapturedLogs logs = CapturedLogs.of("ROOT", Level.DEBUG);
                SecuredAgent a = new SecuredAgent(PASSWORD, new AtomicReference<>(PacerConfig.defaults()))) {
            a.agent.start();
            Throwable refusal = refusal(a.agent);
            assertThat(refusal).isInstanceOf(MissingPermissionException.class);
            assertThat(((MissingPermissionException) refusal).missing()).containsExactly(withheld);
            assertThat(refusal.getMessage())
                    .contains(
                            withheld.describe(),
                            withheld.grantCommand(MissingPermissionException.PRINCIPAL_PLACEHOLDER));
            assertThat(a.agent.state()).isEqualTo(AgentState.REFUSED);
            assertThat(logs.messagesOf("StartupCheck"))
                    .anySatisfy(m -> assertThat(m).contains(withheld.describe()));
            assertNoSecret(logs.text(), refusal);
        }
    }

    @Test
    void aclRevokedWhileRunning_failsTheRunNamingThePermissionAndHowToGrantIt() throws Exception {
        cluster.accessControl().grant(bindings(AgentPermissions.REQUIRED));
        ensureStateTopic();
        Map<Integer, List<Integer>> original = replicaOrders();
        AtomicReference<PacerConfig> policy = new AtomicReference<>(PacerConfig.defaults());
        RequiredPermission write = AgentPermissions.REQUIRED.stream()
                .filter(p -> p.operation() == AclOperation.WRITE && p.resourceType() == ResourceType.TOPIC)
                .findFirst()
                .orElseThrow();
        try (CapturedLogs logs = CapturedLogs.of("ROOT", Level.DEBUG);
                SecuredAgent a = new SecuredAgent(PASSWORD, policy)) {
            a.agent.start();
            await().atMost(WAIT).until(() -> a.agent.state() == AgentState.ACTIVE);
            cluster.accessControl().revoke(bindings(List.of(write)));
            // The next reorder must write its original orders ahead to the state topic, which is now refused.
            policy.set(PacerConfig.defaults().with("preferred.leader.deprioritized.list", "2"));
            RunRecord failed = a.agent.runOnce();
            assertThat(failed.failure()).as("run %s", failed.summary()).isPresent();
            assertThat(failed.failure().orElseThrow())
                    .contains(write.describe(), write.grantCommand(MissingPermissionException.PRINCIPAL_PLACEHOLDER));
            assertThat(replicaOrders())
                    .as("nothing reordered without its write-ahead record")
                    .isEqualTo(original);
            assertThat(logs.text()).doesNotContain(PASSWORD);
        }
    }

    @Test
    void wrongPassword_refusesToRunWithoutShowingAnyPassword() throws Exception {
        cluster.accessControl().grant(bindings(AgentPermissions.REQUIRED));
        String wrong = "Wrong-Passw0rd-0815";
        try (CapturedLogs logs = CapturedLogs.of("ROOT", Level.DEBUG);
                SecuredAgent a = new SecuredAgent(wrong, new AtomicReference<>(PacerConfig.defaults()))) {
            a.agent.start();
            Throwable refusal = refusal(a.agent);
            assertThat(refusal).isInstanceOf(SaslAuthenticationException.class);
            assertThat(a.agent.state()).isEqualTo(AgentState.REFUSED);
            assertThat(logs.messagesOf("StartupCheck"))
                    .anySatisfy(
                            m -> assertThat(m).contains("Authentication failed").doesNotContain("Exception"));
            assertNoSecret(logs.text(), refusal);
            assertThat(logs.text()).doesNotContain(wrong);
            assertThat(chainMessages(refusal)).doesNotContain(wrong);
        }
    }

    /**
     * An agent wired as {@code pacer run} wires it (dynamic config topic, coordination group with its fenced
     * state writer, KIP-491 step), from properties with SCRAM and inert TLS settings.
     */
    @Test
    void catchUpPacingWithoutItsAcls_isTurnedOffWithOneClearError_andLeadershipPacingGoesOn() throws Exception {
        cluster.accessControl().grant(bindings(AgentPermissions.REQUIRED));
        AtomicReference<PacerConfig> policy =
                new AtomicReference<>(PacerConfig.defaults().with("leader.imbalance.catch.up.pacing", "static"));
        try (SecuredAgent a = new SecuredAgent(PASSWORD, policy)) {
            a.agent.start();
            await().atMost(WAIT).until(() -> a.agent.state() == AgentState.ACTIVE);

            PacingReport first = a.agent.paceOnce();

            assertThat(first.problem())
                    .hasValueSatisfying(p -> assertThat(p)
                            .startsWith("catch-up pacing is off: the agent's principal lacks ALTER_CONFIGS on")
                            .contains(AgentPermissions.CATCH_UP_PACING.get(0).describe())
                            .contains(AgentPermissions.CATCH_UP_PACING.get(1).describe())
                            .contains("kafka-acls.sh")
                            .contains("Leadership pacing goes on without it")
                            .doesNotContain(PASSWORD));
            assertThat(first.changes()).isEmpty();
            assertThat(a.agent.paceOnce().problem()).as("it stays off").isEqualTo(first.problem());
            RunRecord run = a.agent.runOnce();
            assertThat(run.succeeded())
                    .as("leadership pacing goes on: %s", run.failure())
                    .isTrue();
        }

        cluster.accessControl().grant(bindings(AgentPermissions.CATCH_UP_PACING));
        try (SecuredAgent a = new SecuredAgent(PASSWORD, policy)) {
            a.agent.start();
            await().atMost(WAIT).until(() -> a.agent.state() == AgentState.ACTIVE);
            cluster.stopBroker(2);
            try {
                // A new active instance acts only once its takeover is confirmed: the first looks may be refused.
                // The broker the agent asks may learn of broker 2's shutdown a moment after the controller, and the
                // agent's own scheduled look may set the throttle before this one: so look until it is in force,
                // and let any problem but a takeover still being confirmed end the wait.
                AtomicReference<PacingReport> last = new AtomicReference<>();
                await().atMost(WAIT).pollInterval(Duration.ofMillis(250)).until(() -> {
                    PacingReport r = a.agent.paceOnce();
                    last.set(r);
                    return r.problem().filter(p -> !p.contains("took over")).isPresent()
                            || !followerThrottledReplicas().isEmpty();
                });
                assertThat(last.get().problem()).as("with the documented ACLs").isEmpty();
                assertThat(followerThrottledReplicas().split(","))
                        .as("it throttles broker 2's replicas, and only them")
                        .hasSize(6)
                        .allSatisfy(r -> assertThat(r).endsWith(":2"));
            } finally {
                cluster.startBroker(2);
            }
        }
        assertThat(followerThrottledReplicas())
                .as("restored when the agent closed")
                .isEmpty();
    }

    /** The topic's {@code follower.replication.throttled.replicas}, as the cluster holds it. */
    private static String followerThrottledReplicas() throws Exception {
        return cluster.admin()
                .describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC)))
                .all()
                .get(30, TimeUnit.SECONDS)
                .values()
                .iterator()
                .next()
                .get("follower.replication.throttled.replicas")
                .value();
    }

    private static final class SecuredAgent implements AutoCloseable {
        final AgentAssembly assembly;
        final PacerAgent agent;

        SecuredAgent(String password, AtomicReference<PacerConfig> policy) {
            Map<String, String> file = new LinkedHashMap<>(cluster.scramClientProperties(USER, password));
            file.putAll(INERT_TLS);
            file.put("pacer.http.enabled", "false");
            file.put("pacer.request.timeout.ms", "20000");
            file.put("pacer.session.timeout.ms", "6000");
            file.put("pacer.instance.id", "least-privilege");
            AgentProperties props = AgentPropertiesFile.fromMap("least-privilege.properties", file);
            assembly = AgentAssembly.open(props, policy::get, b -> {});
            agent = assembly.agent();
        }

        @Override
        public void close() {
            assembly.close();
        }
    }

    /**
     * Runs the agent until the condition holds. A run may fail while the broker restart moves the group's
     * coordinator (this instance is then briefly not active); only a failure that lasts fails the test.
     */
    private static void runUntil(PacerAgent agent, String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String lastFailure = "none";
        while (System.nanoTime() < deadline) {
            RunRecord r = agent.runOnce();
            lastFailure = r.failure().orElse(lastFailure);
            if (condition.call()) {
                return;
            }
            Thread.sleep(200);
        }
        fail("not reached within " + WAIT.toSeconds() + " s: " + what + "; last failed run: " + lastFailure);
    }

    private static Throwable refusal(PacerAgent agent) throws Exception {
        try {
            agent.termination().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        return fail("the agent ran, state " + agent.state());
    }

    private static void assertNoSecret(String logText, Throwable refusal) {
        for (String secret : List.of(PASSWORD, INERT_TLS.get("ssl.truststore.password"))) {
            assertThat(logText).doesNotContain(secret);
            assertThat(chainMessages(refusal)).doesNotContain(secret);
        }
    }

    /** Every message and string form along the cause chain. */
    private static String chainMessages(Throwable error) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = error; t != null && b.length() < 100_000; t = t.getCause()) {
            b.append(t).append('\n').append(t.getMessage()).append('\n');
        }
        return b.toString();
    }

    /** The "XConfig values:" block a Kafka client logs when it is created. */
    private static String configDump(String logText, String configClass) {
        int start = logText.indexOf(configClass + " values:");
        assertThat(start)
                .as("%s logged its values in:%n%s", configClass, logText.substring(0, Math.min(3000, logText.length())))
                .isNotNegative();
        int end = logText.indexOf("\nINFO", start);
        return logText.substring(start, end < 0 ? logText.length() : end);
    }

    private static List<AclBinding> bindings(List<RequiredPermission> permissions) {
        return permissions.stream()
                .map(p -> new AclBinding(
                        new ResourcePattern(p.resourceType(), p.resourceName(), p.patternType()),
                        new AccessControlEntry(PRINCIPAL, "*", p.operation(), AclPermissionType.ALLOW)))
                .toList();
    }

    private static void deleteStateTopic() throws Exception {
        try {
            cluster.admin().deleteTopics(List.of(STATE_TOPIC)).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
        await().atMost(WAIT)
                .until(() -> !cluster.admin().listTopics().names().get().contains(STATE_TOPIC));
    }

    private static void ensureStateTopic() throws Exception {
        if (!cluster.admin().listTopics().names().get().contains(STATE_TOPIC)) {
            cluster.createTopic(STATE_TOPIC, 1, 3, Map.of("cleanup.policy", "compact", "min.insync.replicas", "2"));
        }
    }

    private static List<TopicPartitionInfo> partitions() throws Exception {
        TopicDescription d = cluster.admin()
                .describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get()
                .get(TOPIC);
        return d.partitions();
    }

    private static Map<Integer, List<Integer>> replicaOrders() throws Exception {
        return partitions().stream()
                .collect(Collectors.toMap(
                        TopicPartitionInfo::partition,
                        p -> p.replicas().stream().map(Node::id).toList()));
    }
}
