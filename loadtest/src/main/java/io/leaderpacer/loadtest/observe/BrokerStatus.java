package io.leaderpacer.loadtest.observe;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The restarted broker as the controller sees it.
 *
 * <p>Why three states: a broker that is gone from the cluster, one that has registered but is still fenced, and an
 * unfenced one are three different moments of a restart; the window starts at the last.
 */
public enum BrokerStatus {
    /** Not registered (stopped, or its session expired). */
    ABSENT,
    /** Registered, fenced: it cannot lead or be in an ISR yet. */
    FENCED,
    /** Registered and unfenced. */
    ACTIVE;

    /** How long a stopped broker may stay active: the controller fences it once its session times out. */
    public static final Duration FENCE_LIMIT = Duration.ofSeconds(60);

    /** How long a restarted broker may take to be unfenced: its log recovery and registration. */
    public static final Duration UNFENCE_LIMIT = Duration.ofSeconds(180);

    /** The state of a broker now, from the controller (one request; ABSENT also when the cluster does not answer). */
    public static BrokerStatus of(Admin admin, int broker) {
        try {
            Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions()
                            .includeFencedBrokers(true)
                            .timeoutMs(3000))
                    .nodes()
                    .get(4, TimeUnit.SECONDS);
            for (Node n : nodes) {
                if (n.id() == broker) {
                    return n.isFenced() ? FENCED : ACTIVE;
                }
            }
            return ABSENT;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return ABSENT;
        }
    }

    /**
     * Waits, looking every 100 ms, until the controller sees the broker in a state {@code done} accepts.
     *
     * @throws IllegalStateException with {@code failure} as its message when {@code limit} passes first
     */
    public static void await(Admin admin, int broker, Predicate<BrokerStatus> done, Duration limit, String failure)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!done.test(of(admin, broker))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(failure);
            }
            Thread.sleep(100);
        }
    }

    /** Waits until the controller no longer has the stopped broker active; fails after {@link #FENCE_LIMIT}. */
    public static void awaitFenced(Admin admin, int broker) throws InterruptedException {
        await(
                admin,
                broker,
                s -> s != ACTIVE,
                FENCE_LIMIT,
                "broker " + broker + " was still active " + FENCE_LIMIT.toSeconds() + " s after it was stopped");
    }

    /** Waits until the restarted broker is unfenced; fails after {@link #UNFENCE_LIMIT}. */
    public static void awaitUnfenced(Admin admin, int broker) throws InterruptedException {
        await(
                admin,
                broker,
                s -> s == ACTIVE,
                UNFENCE_LIMIT,
                "broker " + broker + " was not unfenced within " + UNFENCE_LIMIT.toSeconds() + " s after its restart");
    }
}
