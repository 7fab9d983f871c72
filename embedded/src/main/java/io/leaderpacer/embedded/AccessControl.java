package io.leaderpacer.embedded;

import kafka.server.BrokerServer;
import kafka.server.ControllerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.server.authorizer.Authorizer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * SCRAM users and ACLs of a secured {@link EmbeddedKafkaCluster}, changed as the cluster's super user.
 *
 * <p>Why: a least-privilege test must give a principal exactly some ACLs, run, take one away, run again. Kafka
 * applies users and ACLs asynchronously (they travel through the metadata log to every node), so a test that
 * checks a denial right after a revocation would race. Every change here returns only once every running broker
 * (and the controller, which authorizes forwarded requests) has applied it, so the next request sees the new
 * rights on whichever node answers.
 */
public final class AccessControl {

    /** SCRAM iterations: Kafka's minimum; the tests need no brute-force resistance. */
    private static final int SCRAM_ITERATIONS = 4096;

    /** The cluster's super-user Admin client (owned by the cluster). */
    private final Admin admin;
    /** The running nodes, to see when a change has reached them. */
    private final KafkaClusterTestKit kit;
    /** Bound on each wait. */
    private final Duration waitLimit;

    AccessControl(Admin admin, KafkaClusterTestKit kit, Duration waitLimit) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.kit = Objects.requireNonNull(kit, "kit");
        this.waitLimit = Objects.requireNonNull(waitLimit, "waitLimit");
    }

    /**
     * Creates (or changes the password of) a user who authenticates with SCRAM-SHA-512, and waits until every
     * running broker can authenticate it.
     */
    public void createScramUser(String user, String password) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        String what = "SCRAM-SHA-512 user '" + user + "'";
        call(
                "create " + what,
                () -> admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                                user,
                                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, SCRAM_ITERATIONS),
                                password)))
                        .all()
                        .get(waitLimit.toMillis(), TimeUnit.MILLISECONDS));
        waitUntil(
                what + " known to every running broker",
                () -> runningBrokers().stream()
                        .allMatch(b -> b.credentialProvider()
                                        .credentialCache
                                        .cache(SaslScramSetup.CLIENT_MECHANISM, ScramCredential.class)
                                        .get(user)
                                != null));
    }

    /** Adds ACLs and waits until every running node enforces them. */
    public void grant(Collection<AclBinding> acls) {
        List<AclBinding> bindings = List.copyOf(acls);
        call(
                "create ACLs " + bindings,
                () -> admin.createAcls(bindings).all().get(waitLimit.toMillis(), TimeUnit.MILLISECONDS));
        waitUntil(
                "ACLs " + bindings + " in force on every running node",
                () -> authorizers().stream().allMatch(a -> listed(a, bindings).size() == bindings.size()));
    }

    /** Removes exactly these ACLs (others stay) and waits until no running node enforces them any more. */
    public void revoke(Collection<AclBinding> acls) {
        List<AclBinding> bindings = List.copyOf(acls);
        List<AclBindingFilter> filters =
                bindings.stream().map(AclBinding::toFilter).toList();
        call(
                "delete ACLs " + bindings,
                () -> admin.deleteAcls(filters).all().get(waitLimit.toMillis(), TimeUnit.MILLISECONDS));
        waitUntil(
                "ACLs " + bindings + " gone from every running node",
                () -> authorizers().stream().allMatch(a -> listed(a, bindings).isEmpty()));
    }

    /** Removes every ACL of a principal (e.g. {@code User:agent}), to start a test case from nothing. */
    public void revokeAll(String principal) {
        AclBindingFilter all = new AclBindingFilter(
                ResourcePatternFilter.ANY,
                new AccessControlEntryFilter(principal, null, AclOperation.ANY, AclPermissionType.ANY));
        call(
                "delete the ACLs of " + principal,
                () -> admin.deleteAcls(List.of(all)).all().get(waitLimit.toMillis(), TimeUnit.MILLISECONDS));
        waitUntil(
                "no ACL of " + principal + " left on any running node",
                () -> authorizers().stream()
                        .allMatch(a -> !a.acls(all).iterator().hasNext()));
    }

    /** The ACLs of a principal as the cluster reports them. */
    public Set<AclBinding> aclsOf(String principal) {
        AclBindingFilter all = new AclBindingFilter(
                ResourcePatternFilter.ANY,
                new AccessControlEntryFilter(principal, null, AclOperation.ANY, AclPermissionType.ANY));
        return new HashSet<>(call(
                "describe the ACLs of " + principal,
                () -> admin.describeAcls(all).values().get(waitLimit.toMillis(), TimeUnit.MILLISECONDS)));
    }

    private static Set<AclBinding> listed(Authorizer authorizer, List<AclBinding> bindings) {
        Set<AclBinding> found = new HashSet<>();
        for (AclBinding b : bindings) {
            authorizer.acls(b.toFilter()).forEach(found::add);
        }
        return found;
    }

    private List<BrokerServer> runningBrokers() {
        return kit.brokers().values().stream().filter(b -> !b.isShutdown()).toList();
    }

    /** The authorizer of every running broker and of the controller. */
    private List<Authorizer> authorizers() {
        List<Authorizer> result = new ArrayList<>();
        for (BrokerServer b : runningBrokers()) {
            if (b.authorizerPlugin().isDefined()) {
                result.add(b.authorizerPlugin().get().get());
            }
        }
        for (ControllerServer c : kit.controllers().values()) {
            if (c.authorizerPlugin().isDefined()) {
                result.add(c.authorizerPlugin().get().get());
            }
        }
        if (result.isEmpty()) {
            throw new IllegalStateException("the cluster has no authorizer: build it with saslScramWithAcls()");
        }
        return result;
    }

    private interface AdminCall<T> {
        T run() throws Exception;
    }

    private static <T> T call(String what, AdminCall<T> call) {
        try {
            return call.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedKafkaException("interrupted while trying to " + what, e);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new EmbeddedKafkaException("could not " + what + ": " + cause, cause);
        }
    }

    private void waitUntil(String what, BooleanSupplier condition) {
        BoundedWait.until(what, waitLimit, condition);
    }
}
