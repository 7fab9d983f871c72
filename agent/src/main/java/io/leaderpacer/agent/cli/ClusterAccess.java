package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.config.AgentConfigException;
import io.leaderpacer.agent.config.AgentProperties;
import io.leaderpacer.agent.config.AgentPropertiesFile;
import io.leaderpacer.agent.core.TimeoutMs;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A command's way into the cluster from the agent's properties file: the file loaded, an Admin client created from it,
 * and one bounded contact, each failure printed as one {@code Error: } line with the exit status it calls for.
 *
 * <p>Why one place: {@code pacer plan}, {@code pacer throttles} and {@code pacer restore} reach the cluster exactly as
 * {@code pacer run} does, and an operator at 3 a.m. gets the same words for the same mistake from each.
 */
final class ClusterAccess implements AutoCloseable {

    /** Bad usage or an invalid properties file. */
    static final int EXIT_USAGE = 2;
    /** The cluster could not be reached or read. */
    static final int EXIT_CLUSTER = 3;

    /** A failure already printed, and the exit status it calls for. */
    static final class Exit extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        Exit(int status) {
            super(null, null, false, false);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    /** A command's work once a broker has answered, returning its exit status. */
    @FunctionalInterface
    interface Work {
        int run(ClusterAccess access) throws Exit, InterruptedException;
    }

    private final AgentProperties props;
    private final Admin admin;

    private ClusterAccess(AgentProperties props, Admin admin) {
        this.props = props;
        this.admin = admin;
    }

    /** Loads the file and creates the client; prints why not. */
    static ClusterAccess open(Path config, PrintWriter err) throws Exit {
        AgentProperties props;
        try {
            props = new AgentPropertiesFile(config).load();
        } catch (AgentConfigException e) {
            err.println("Error: " + e.getMessage());
            throw new Exit(EXIT_USAGE);
        }
        try {
            return new ClusterAccess(props, Admin.create(props.adminClientConfig()));
        } catch (KafkaException | IllegalArgumentException e) {
            throw new Exit(ClusterErrors.printClientFailure(e, config, props, err) ? EXIT_CLUSTER : EXIT_USAGE);
        }
    }

    /**
     * Opens the cluster from the file, makes one bounded contact, runs the work and closes the client: the shell every
     * command that reads the cluster shares, each failure as one {@code Error: } line and its exit status.
     */
    static int call(Path config, PrintWriter err, Work work) {
        try (ClusterAccess access = open(config, err)) {
            access.contact(err);
            return work.run(access);
        } catch (Exit e) {
            return e.status();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Error: interrupted");
            return EXIT_CLUSTER;
        }
    }

    AgentProperties props() {
        return props;
    }

    Admin admin() {
        return admin;
    }

    /**
     * One of the agent's compacted topics (its state or config topic), with the client settings and request time-out
     * of the file, written through a producer of its own.
     */
    CompactedTopic topic(String name) {
        return topic(name, null);
    }

    /** As {@link #topic(String)}, written through {@code writer} (e.g. the agent group's fenced writes) when not null. */
    CompactedTopic topic(String name, CompactedTopic.Writer writer) {
        return new CompactedTopic(admin, props.clientProperties(), name, props.requestTimeout(), writer);
    }

    /**
     * One bounded contact: an unreachable cluster is reported once, within the request time-out, instead of after
     * each later call's own time-out.
     */
    void contact(PrintWriter err) throws Exit {
        Optional<String> unreachable = unreachable();
        if (unreachable.isPresent()) {
            err.println("Error: cannot reach the cluster: " + unreachable.get());
            throw new Exit(EXIT_CLUSTER);
        }
    }

    /** Empty when a broker answered within the request time-out, else what went wrong. */
    Optional<String> unreachable() {
        int ms = TimeoutMs.of(props.requestTimeout());
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms))
                    .nodes()
                    .get(ms + 1_000L, TimeUnit.MILLISECONDS);
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            return Optional.of(ClusterErrors.describe(
                    e, props.bootstrapServers(), props.requestTimeout(), props.redactor(), props.clientProperties()));
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
