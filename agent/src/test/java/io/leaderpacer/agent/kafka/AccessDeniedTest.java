package io.leaderpacer.agent.kafka;

import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;

/** Kafka's authorization errors become one message naming the needed ACLs and how to grant them (hand-worked cases). */
class AccessDeniedTest {

    @Test
    void clusterRefusal_insideExecutionException_namesBothClusterAcls() {
        MissingPermissionException m = AccessDenied.explain(
                        new ExecutionException(new ClusterAuthorizationException("Cluster authorization failed.")))
                .orElseThrow();
        assertThat(m.missing())
                .extracting(RequiredPermission::operation)
                .containsExactly(AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS);
        assertThat(m.getMessage())
                .contains("Cluster authorization failed.")
                .doesNotContain("ClusterAuthorizationException")
                .contains("ALTER on Cluster 'kafka-cluster'")
                .contains("--operation Alter --cluster")
                .contains("--operation DescribeConfigs --cluster");
    }

    @Test
    void refusedStateTopic_namesTheOwnTopicPrefixAclsAndTopicDescribe() {
        MissingPermissionException m = AccessDenied.explain(
                        new TopicAuthorizationException(Set.of("_leader-pacer-state")))
                .orElseThrow();
        assertThat(m.missing())
                .extracting(RequiredPermission::describe)
                .containsExactly(
                        "DESCRIBE on Topic '*'",
                        "CREATE on Topic prefix '_leader-pacer'",
                        "DESCRIBE_CONFIGS on Topic prefix '_leader-pacer'",
                        "READ on Topic prefix '_leader-pacer'",
                        "WRITE on Topic prefix '_leader-pacer'");
        assertThat(m.getMessage()).contains("--topic _leader-pacer --resource-pattern-type prefixed");
    }

    @Test
    void refusedOrdinaryTopic_namesOnlyTopicDescribe() {
        MissingPermissionException m = AccessDenied.explain(new TopicAuthorizationException(Set.of("payments")))
                .orElseThrow();
        assertThat(m.missing()).extracting(RequiredPermission::describe).containsExactly("DESCRIBE on Topic '*'");
        assertThat(m.getMessage()).contains("--operation Describe --topic '*'");
    }

    @Test
    void refusedGroupAndTransactionalId_nameReadAndWrite() {
        assertThat(AccessDenied.explain(new GroupAuthorizationException("no", "leader-pacer"))
                        .orElseThrow()
                        .missing())
                .extracting(RequiredPermission::describe)
                .containsExactly("READ on Group 'leader-pacer'");
        MissingPermissionException tx = AccessDenied.explain(
                        new TransactionalIdAuthorizationException("Transactional Id authorization failed."))
                .orElseThrow();
        assertThat(tx.missing())
                .extracting(RequiredPermission::describe)
                .containsExactly("WRITE on TransactionalId 'leader-pacer-state'");
        assertThat(tx.getMessage()).contains("--operation Write --transactional-id leader-pacer-state");
    }

    @Test
    void otherErrors_areNotExplained() {
        assertThat(AccessDenied.explain(new ExecutionException(new TimeoutException("slow"))))
                .isEmpty();
        assertThat(AccessDenied.explain(new IllegalStateException("bug"))).isEmpty();
    }

    @Test
    void grantCommand_spellsOperationResourceAndPatternAsKafkaAclsExpects() {
        RequiredPermission prefixed = new RequiredPermission(
                AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, "_leader-pacer", PatternType.PREFIXED, "x");
        assertThat(prefixed.grantCommand("User:pacer"))
                .isEqualTo("kafka-acls.sh --bootstrap-server <brokers>"
                        + " --command-config <admin.properties> --add --allow-principal User:pacer --operation DescribeConfigs"
                        + " --topic _leader-pacer --resource-pattern-type prefixed");
        assertThat(prefixed.covers(ResourceType.TOPIC, "_leader-pacer-config")).isTrue();
        assertThat(prefixed.covers(ResourceType.TOPIC, "leader-pacer")).isFalse();
        assertThat(prefixed.covers(ResourceType.GROUP, "_leader-pacer")).isFalse();
    }
}
