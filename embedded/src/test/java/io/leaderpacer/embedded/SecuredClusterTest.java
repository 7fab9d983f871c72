package io.leaderpacer.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The secured cluster: SCRAM-SHA-512 users, ACLs enforced, nothing allowed by default. One cluster for the class. */
@Tag("cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SecuredClusterTest {

    private static final String USER = "reader";
    private static final String PASSWORD = "reader-secret-1";
    private static final String TOPIC = "guarded";

    private static EmbeddedKafkaCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedKafkaCluster.builder()
                .brokers(1)
                .saslScramWithAcls()
                .build()
                .start();
        cluster.createTopic(TOPIC, 2, 1);
        cluster.accessControl().createScramUser(USER, PASSWORD);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void scramUser_isDeniedWithoutAclAndAllowedWithTopicDescribeAcl() throws Exception {
        AclBinding describe = new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, TOPIC, PatternType.LITERAL),
                new AccessControlEntry("User:" + USER, "*", AclOperation.DESCRIBE, AclPermissionType.ALLOW));
        try (Admin user = Admin.create(new HashMap<>(cluster.scramClientProperties(USER, PASSWORD)))) {
            assertThatThrownBy(() -> describe(user))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(TopicAuthorizationException.class);

            cluster.accessControl().grant(List.of(describe));
            assertThat(cluster.accessControl().aclsOf("User:" + USER)).containsExactly(describe);
            assertThat(describe(user)).isEqualTo(2);

            cluster.accessControl().revoke(List.of(describe));
            assertThat(cluster.accessControl().aclsOf("User:" + USER)).isEmpty();
            assertThatThrownBy(() -> describe(user))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void wrongPassword_failsAuthentication() {
        try (Admin user = Admin.create(new HashMap<>(cluster.scramClientProperties(USER, "not-the-password")))) {
            assertThatThrownBy(() -> describe(user))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void clusterOwnAdmin_isSuperUserOverSasl() throws Exception {
        Map<String, String> props = cluster.adminClientProperties();
        assertThat(props).containsEntry("security.protocol", "SASL_PLAINTEXT").containsEntry("sasl.mechanism", "PLAIN");
        assertThat(describe(cluster.admin())).isEqualTo(2);
    }

    @Test
    void plainCluster_refusesSecurityCalls() {
        EmbeddedKafkaCluster plain = EmbeddedKafkaCluster.builder().brokers(1).build();
        assertThat(plain.isSecured()).isFalse();
        assertThatThrownBy(() -> plain.scramClientProperties(USER, PASSWORD))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("saslScramWithAcls()");
    }

    private static int describe(Admin admin) throws Exception {
        return admin.describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(TOPIC)
                .partitions()
                .size();
    }
}
