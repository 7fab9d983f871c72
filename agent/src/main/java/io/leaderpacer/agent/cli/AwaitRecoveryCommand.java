package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.PacerAgent;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.TopicConfigSource;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.pacing.ThrottleInventory;
import io.leaderpacer.agent.pacing.TopicLedgerStore;
import io.leaderpacer.agent.reorder.OrderStateStore;
import io.leaderpacer.agent.rolling.Recovered;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * {@code pacer await-recovery}: waits until the cluster has recovered from a restart, for a script that restarts
 * brokers in turn.
 *
 * <p>Why: a roller that waits for "broker up" takes the next broker down while the previous one still catches up;
 * this waits for what matters: every broker up, every replica back in its ISR, every partition led by the leader the
 * policy gives it back, and catch-up pacing owning no throttle.
 */
@Command(
        name = "await-recovery",
        mixinStandardHelpOptions = true,
        description = {
            "Wait until the cluster has recovered from a restart: every broker up, every replica in its ISR, every"
                    + " partition led by the leader the policy gives it back (deprioritized brokers last), and catch-up"
                    + " pacing owning no throttle. Changes nothing.",
            "For a rolling restart: restart a broker, run this, then restart the next (pacer restart-check first)."
        },
        footer = {
            "",
            "Exit status: 0 recovered; 1 not recovered within --timeout (what is missing is printed); 2 bad usage or"
                    + " invalid properties file; 3 the cluster could not be read."
        })
public final class AwaitRecoveryCommand extends ClusterCommand {

    /** Not recovered within the time-out. */
    public static final int EXIT_NOT_RECOVERED = 1;

    @Option(
            names = "--timeout-ms",
            paramLabel = "MS",
            defaultValue = "1800000",
            description = "How long to wait at most, in milliseconds (default: ${DEFAULT-VALUE}, 30 minutes: pacing's"
                    + " default max-wait).")
    private long timeoutMs;

    @Option(
            names = "--interval-ms",
            paramLabel = "MS",
            defaultValue = "5000",
            description = "How often to look, in milliseconds (default: ${DEFAULT-VALUE}).")
    private long intervalMs;

    @Override
    Optional<String> badUsage() {
        if (timeoutMs < 0 || intervalMs < 100) {
            return Optional.of(
                    "--timeout-ms must be >= 0 and --interval-ms >= 100, were " + timeoutMs + " and " + intervalMs);
        }
        return Optional.empty();
    }

    /** Looks every --interval-ms until the cluster has recovered or --timeout-ms has passed; its exit status. */
    @Override
    int work(ClusterAccess access, PrintWriter out, PrintWriter err) throws InterruptedException {
        try (TopicConfigSource overrides = new TopicConfigSource(access.topic(TopicConfigSource.DEFAULT_TOPIC));
                CompactedTopic state = access.topic(OrderStateStore.DEFAULT_TOPIC);
                PacerAgent agent = PacerAgent.builder(access.admin())
                        .properties(access.props())
                        .configSource(overrides)
                        .build()) {
            ClusterReader reader = new ClusterReader(
                    access.admin(),
                    access.props().requestTimeout(),
                    access.props().describeBatchTopics());
            Timer timer = Time.SYSTEM.timer(timeoutMs);
            List<String> last = List.of();
            while (true) {
                Recovered.Verdict v;
                try {
                    v = look(agent, reader, state, access);
                } catch (ExecutionException | TimeoutException | RuntimeException e) {
                    err.println("Error: cannot read the cluster: "
                            + access.props().redactor().describe(e));
                    return ClusterAccess.EXIT_CLUSTER;
                }
                if (v.ok()) {
                    out.println("Recovered: every broker up, every replica in its ISR, leadership as the policy gives"
                            + " it, catch-up pacing owning nothing.");
                    out.flush();
                    return 0;
                }
                if (!v.missing().equals(last)) {
                    out.println("Not recovered yet:");
                    v.missing().forEach(m -> out.println("  " + m));
                    out.flush();
                    last = v.missing();
                }
                timer.update();
                if (timer.remainingMs() <= 0) {
                    err.println("Error: not recovered within " + timeoutMs + " ms; still missing: "
                            + String.join("; ", v.missing()));
                    return EXIT_NOT_RECOVERED;
                }
                Time.SYSTEM.sleep(Math.min(intervalMs, timer.remainingMs()));
            }
        }
    }

    /** One look: the cluster, the policy in force (its deprioritized brokers), and what pacing owns. */
    private static Recovered.Verdict look(
            PacerAgent agent, ClusterReader reader, CompactedTopic state, ClusterAccess access)
            throws InterruptedException, ExecutionException, TimeoutException {
        RunRecord plan = agent.dryRun();
        ClusterSnapshot snapshot = reader.read();
        boolean owns = ThrottleInventory.read(
                        access.admin(),
                        new TopicLedgerStore(state),
                        access.props().requestTimeout())
                .pacingOwns();
        return Recovered.of(snapshot, plan.config().deprioritizedBrokers(), owns);
    }
}
