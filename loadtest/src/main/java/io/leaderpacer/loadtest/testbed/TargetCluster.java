package io.leaderpacer.loadtest.testbed;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The cluster a load test runs on, and the one thing the test does to it besides producing: stopping and starting a
 * broker.
 *
 * <p>Why an interface: the same test runs on the cluster it starts itself and on an operator's staging cluster, where
 * a broker is restarted by a command the operator gives and its process may be on another host.
 */
public interface TargetCluster extends AutoCloseable {

    /** One line for the report, e.g. "1 controller + 3 brokers as separate processes on 127.0.0.1". */
    String description();

    /** Bootstrap servers and any security settings, for every client the test makes. */
    Map<String, Object> clientProperties();

    /** The broker ids. */
    List<Integer> brokerIds();

    /** Takes the broker down and returns when it is down. */
    void stopBroker(int broker, ShutdownMode mode) throws Exception;

    /** Starts the broker again and returns once its process runs (it may still be fenced). */
    void startBroker(int broker) throws Exception;

    /**
     * Starts the broker again with these static settings on top of its {@code server.properties}, for this run of it
     * only: what a round restarts the broker under (fetch sizes, thread counts). Only the test's own cluster can.
     *
     * @throws UnsupportedOperationException when there are settings and the cluster is not the test's own
     */
    default void startBroker(int broker, Map<String, String> staticSettings) throws Exception {
        if (!staticSettings.isEmpty()) {
            throw new UnsupportedOperationException(
                    "static settings of the restarted broker (" + staticSettings.keySet()
                            + ") need the load test's own cluster: its server.properties is written for each start");
        }
        startBroker(broker);
    }

    /** The broker's process id when it runs on this machine and the test knows it. */
    OptionalLong pid(int broker);

    @Override
    void close();
}
