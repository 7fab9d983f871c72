package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.pacing.ThrottleInventory;
import io.leaderpacer.agent.pacing.TopicLedgerStore;
import io.leaderpacer.agent.reorder.OrderStateStore;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * {@code pacer throttles}: every replication throttle config in the cluster, each marked as catch-up pacing's (from
 * its ledger in the state topic) or someone else's; changes nothing.
 *
 * <p>Why: a replication throttle left behind silently slows every later catch-up and reassignment. After a recovery,
 * or before removing the agent, an operator checks here that pacing left nothing; a script checks the exit status.
 */
@Command(
        name = "throttles",
        mixinStandardHelpOptions = true,
        description = {
            "List every replication throttle config in the cluster, each marked as catch-up pacing's or"
                    + " someone else's; changes nothing.",
            "Rates on the cluster default and on each broker that is up, leader and follower side; replica lists on"
                    + " every topic. Pacing's are those its ledger (in the agent's state topic) records."
        },
        footer = {
            "",
            "Exit status: 0 listed, nothing of pacing's left behind; 1 pacing owns a throttle value while no"
                    + " broker is recovering (every broker up, every replica in its ISR): it should have restored it"
                    + " (start the agent, or stop every instance and run pacer restore); 2 bad usage or invalid"
                    + " properties file; 3 the cluster could not be read."
        })
public final class ThrottlesCommand extends ClusterCommand {

    /** Pacing owns a throttle value while no broker is recovering. */
    public static final int EXIT_LEFT_BEHIND = 1;

    /** Reads every throttle config and pacing's ledger and prints them; its exit status. */
    @Override
    int work(ClusterAccess access, PrintWriter out, PrintWriter err) throws InterruptedException {
        ThrottleInventory.Inventory inv;
        try (CompactedTopic state = access.topic(OrderStateStore.DEFAULT_TOPIC)) {
            inv = ThrottleInventory.read(
                    access.admin(), new TopicLedgerStore(state), access.props().requestTimeout());
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            err.println("Error: cannot read the throttle configs or pacing's ledger: "
                    + access.props().redactor().describe(e));
            return ClusterAccess.EXIT_CLUSTER;
        }
        print(out, inv);
        out.flush();
        return inv.leftBehind() ? EXIT_LEFT_BEHIND : 0;
    }

    /** The inventory as a table and a verdict. */
    static void print(PrintWriter out, ThrottleInventory.Inventory inv) {
        if (inv.lines().isEmpty()) {
            out.println("No replication throttle config is set in the cluster.");
        } else {
            out.println("Replication throttle configs in the cluster ("
                    + inv.lines().size() + "):");
            out.println();
            table(out, inv.lines());
        }
        if (!inv.unseen().isEmpty()) {
            out.println();
            out.println("Not read now:");
            inv.unseen().forEach(u -> out.println("  " + u));
        }
        out.println();
        out.println(
                inv.steady()
                        ? "No broker is recovering: every broker is up and every replica in its ISR."
                        : "A broker is recovering (down, fenced, or with replicas out of their ISR).");
        if (inv.leftBehind()) {
            out.println("Catch-up pacing still owns throttle values while no broker is recovering: it should have"
                    + " restored them. Start the agent (its next look restores them), or stop every instance and run"
                    + " pacer restore --config FILE.");
        } else if (inv.pacingOwns()) {
            out.println("Catch-up pacing owns the values marked pacing's while the broker catches up; it restores them"
                    + " once it is back in every ISR.");
        } else {
            out.println("Catch-up pacing owns nothing.");
        }
    }

    private static void table(PrintWriter out, List<ThrottleInventory.Line> lines) {
        int w = "where".length();
        int k = "key".length();
        int v = "value".length();
        for (ThrottleInventory.Line l : lines) {
            w = Math.max(w, l.where().length());
            k = Math.max(k, l.key().length());
            v = Math.max(v, Math.min(40, l.value().length()));
        }
        String f = "  %-" + w + "s  %-" + k + "s  %-" + v + "s  %s%n";
        out.printf(f, "where", "key", "value", "whose");
        for (ThrottleInventory.Line l : lines) {
            String value = l.value().length() > 40 ? l.value().substring(0, 37) + "..." : l.value();
            out.printf(f, l.where(), l.key(), value, l.owner());
        }
    }
}
