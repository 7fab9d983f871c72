package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.rolling.Recovered;
import io.leaderpacer.agent.rolling.RestartSafety;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code pacer restart-check}: whether restarting one broker now is safe, with the reasons when it is not; changes
 * nothing.
 *
 * <p>Why: a rolling restart must not take a broker down while another still recovers, nor while a partition it is in
 * the ISR of would fall under its {@code min.insync.replicas} without it (which refuses {@code acks=all} writes for the
 * restart's length). A script asks this before each restart.
 */
@Command(
        name = "restart-check",
        mixinStandardHelpOptions = true,
        description = {
            "Say whether restarting a broker now is safe: no other broker recovering (down, or out of an ISR), and no"
                    + " partition whose ISR holds it falling under its min.insync.replicas without it. Changes nothing."
        },
        footer = {
            "",
            "Exit status: 0 safe; 1 not safe now (the reasons are printed); 2 bad usage or invalid properties file;"
                    + " 3 the cluster could not be read."
        })
public final class RestartCheckCommand extends ClusterCommand {

    /** Not safe to restart now. */
    public static final int EXIT_UNSAFE = 1;

    @Option(names = "--broker", paramLabel = "ID", required = true, description = "The broker to restart.")
    private int broker;

    /** Reads the cluster and says whether restarting the broker is safe; its exit status. */
    @Override
    int work(ClusterAccess access, PrintWriter out, PrintWriter err) throws InterruptedException {
        Recovered.Verdict v;
        try {
            ClusterSnapshot snapshot = new ClusterReader(
                            access.admin(),
                            access.props().requestTimeout(),
                            access.props().describeBatchTopics())
                    .read();
            v = RestartSafety.of(snapshot, broker, minInsync(access, snapshot));
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            err.println("Error: cannot read the cluster: "
                    + access.props().redactor().describe(e));
            return ClusterAccess.EXIT_CLUSTER;
        }
        if (v.ok()) {
            out.println("Safe to restart broker " + broker + " now.");
            out.flush();
            return 0;
        }
        out.println("Not safe to restart broker " + broker + " now:");
        v.missing().forEach(m -> out.println("  " + m));
        out.flush();
        return EXIT_UNSAFE;
    }

    /** Each topic's {@code min.insync.replicas} in force (its own, or the brokers' default). */
    private static Map<String, Integer> minInsync(ClusterAccess access, ClusterSnapshot snapshot)
            throws InterruptedException, ExecutionException, TimeoutException {
        TreeSet<String> topics = new TreeSet<>();
        for (PartitionState p : snapshot.partitions()) {
            topics.add(p.id().topic());
        }
        List<ConfigResource> resources = new ArrayList<>();
        topics.forEach(t -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, t)));
        Map<String, Integer> out = new HashMap<>();
        int batch = Math.max(1, access.props().describeBatchTopics());
        for (int i = 0; i < resources.size(); i += batch) {
            Map<ConfigResource, Config> configs = access.admin()
                    .describeConfigs(resources.subList(i, Math.min(resources.size(), i + batch)))
                    .all()
                    .get(access.props().requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
            configs.forEach((r, c) -> {
                ConfigEntry e = c.get("min.insync.replicas");
                if (e != null && e.value() != null) {
                    out.put(r.name(), Integer.parseInt(e.value()));
                }
            });
        }
        return out;
    }
}
