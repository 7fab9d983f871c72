package io.leaderpacer.agent.cli;

import io.leaderpacer.agent.coordination.ActiveRole;
import io.leaderpacer.agent.coordination.InstanceIds;
import io.leaderpacer.agent.core.NotActiveException;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.core.TimeoutMs;
import io.leaderpacer.agent.dynamic.CompactedTopic;
import io.leaderpacer.agent.dynamic.UnsafeTopicException;
import io.leaderpacer.agent.pacing.PacingLoop;
import io.leaderpacer.agent.pacing.TopicLedgerStore;
import io.leaderpacer.agent.reorder.OrderStateStore;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code pacer restore}: with no agent running, puts back exactly what catch-up pacing's ledger records it changed:
 * the follower rates and replica-list entries it set, to the values they replaced. Refuses while an instance of the
 * agent's group runs.
 *
 * <p>Why: a clean stop of the agent restores what pacing set; a {@code kill -9} with no standby, or a host lost,
 * leaves it in place until an instance starts again. An operator removing the agent after such a crash needs the
 * same exact restore without starting it.
 *
 * <p>It acts as an instance of the agent's group for the time it restores (the group's active role, its fenced
 * writes, its confirmation before each change), so that an instance systemd restarts meanwhile cannot act beside it:
 * a restore that checked the group once and then wrote through a producer of its own could leave a rate unowned.
 */
@Command(
        name = "restore",
        mixinStandardHelpOptions = true,
        description = {
            "Put back exactly what catch-up pacing changed (its ledger in the agent's state topic), with no"
                    + " agent running: after a crash, to remove the agent.",
            "Refuses while an instance of the agent's group (pacer.group.id) runs: a running agent restores by itself"
                    + " when it stops or when pacing is turned off.",
            "While it restores it joins the group and takes its active role, so that an agent starting meanwhile"
                    + " waits for it (or deposes it before its next change): never both act."
        },
        footer = {
            "",
            "Exit status: 0 restored (or nothing to restore); 1 something could not be restored yet (a"
                    + " broker it throttled is down: run it again once the broker is up), or the agent is running or"
                    + " took over meanwhile;"
                    + " 2 bad usage or invalid properties file; 3 the cluster could not be read."
        })
public final class RestoreCommand extends ClusterCommand {

    /** Something is left to restore, or an instance runs. */
    public static final int EXIT_NOT_DONE = 1;

    /** The start of the instance id under which it takes the agent's active role. */
    static final String RESTORE_INSTANCE_PREFIX = "pacer-restore-";

    /** Restores what pacing owns, as an instance of the agent's group; its exit status. */
    @Override
    int work(ClusterAccess access, PrintWriter out, PrintWriter err) throws InterruptedException {
        String group = access.props().groupId();
        OptionalInt refused = refuseWhileGroupRuns(access, group, err);
        if (refused.isPresent()) {
            return refused.getAsInt();
        }
        PacingReport r;
        // It acts as an instance of the agent's group, through the group's own active role: it joins the group,
        // takes the role (fencing any predecessor, waiting out its lease), writes the ledger through the fenced
        // transactions and confirms before each change. An instance that starts meanwhile stays a standby until
        // this leaves the group (a rebalance waits for this member), or, if it takes the role, deposes this one
        // before its next change: never both act, and the ledger covers whatever either changed.
        try (ActiveRole role = groupRole(access, group)) {
            if (!takeRole(
                    role, access.props().requestTimeout().plus(access.props().sessionTimeout()))) {
                err.println("Error: pacer restore could not take the active role of the agent's group " + group
                        + ": an instance of the agent has it (it restores by itself when it stops or when pacing is"
                        + " turned off)");
                return EXIT_NOT_DONE;
            }
            r = restoreLedger(access, role);
        } catch (NotActiveException e) {
            err.println("Error: an instance of the agent's group " + group + " took the active role while pacer"
                    + " restore ran: it owns what is left of pacing's throttles and restores it (pacer throttles"
                    + " lists them); nothing was left unowned");
            return EXIT_NOT_DONE;
        } catch (UnsafeTopicException | ExecutionException | TimeoutException e) {
            err.println("Error: cannot join the agent's group " + group + ": "
                    + access.props().redactor().describe(e));
            return ClusterAccess.EXIT_CLUSTER;
        }
        return report(r, out, err);
    }

    /**
     * The exit status when it must not start: the agent's group has members (an instance runs, or one killed moments
     * ago has not timed out yet), or they cannot be read; empty when the group is empty or does not exist.
     */
    private static OptionalInt refuseWhileGroupRuns(ClusterAccess access, String group, PrintWriter err)
            throws InterruptedException {
        int members;
        try {
            members = members(access, group);
        } catch (ExecutionException | TimeoutException e) {
            err.println("Error: cannot read the agent's group " + group + ": "
                    + access.props().redactor().describe(e));
            return OptionalInt.of(ClusterAccess.EXIT_CLUSTER);
        }
        if (members > 0) {
            err.println("Error: the agent's group " + group + " has " + members + " member(s): stop every instance"
                    + " first (a clean stop restores what pacing set, and so does turning pacing off); pacer restore"
                    + " is for an agent that is gone. An instance killed moments ago stays a member until its"
                    + " session times out (pacer.session.timeout.ms): run it again after that");
            return OptionalInt.of(EXIT_NOT_DONE);
        }
        return OptionalInt.empty();
    }

    /** The agent group's active role, held under an instance id of its own so that the group shows who acts. */
    private static ActiveRole groupRole(ClusterAccess access, String group) {
        return ActiveRole.builder(access.admin(), access.props().clientProperties())
                .groupId(group)
                .sessionTimeout(access.props().sessionTimeout())
                .instanceId(RESTORE_INSTANCE_PREFIX + InstanceIds.defaultInstanceId())
                .timeout(access.props().requestTimeout())
                .build();
    }

    /**
     * Puts back what pacing's ledger records, writing the ledger through the role's fenced writes and confirming the
     * role before each change.
     */
    private static PacingReport restoreLedger(ClusterAccess access, ActiveRole role)
            throws InterruptedException, ExecutionException, TimeoutException {
        try (CompactedTopic state = access.topic(OrderStateStore.DEFAULT_TOPIC, role.stateWriter())) {
            return PacingLoop.builder(
                            access.admin(),
                            access.props().requestTimeout(),
                            access.props().describeBatchTopics())
                    .ledger(new TopicLedgerStore(state))
                    .guard(role)
                    .build()
                    .restore();
        }
    }

    /** What was restored and what is left; the exit status that says which. */
    private static int report(PacingReport r, PrintWriter out, PrintWriter err) {
        if (r.changes().isEmpty() && r.problem().isEmpty()) {
            out.println("Catch-up pacing owns nothing in the cluster: nothing to restore.");
        }
        r.changes().forEach(c -> out.println("restored: " + c));
        r.notes().forEach(n -> out.println("note: " + n));
        out.flush();
        if (r.problem().isPresent()) {
            err.println("Error: " + r.problem().get());
            return EXIT_NOT_DONE;
        }
        return 0;
    }

    /**
     * Joins the group and polls until this instance is active and its first action is due (its predecessor's lease
     * waited out), or {@code within} passes (another member holds the role).
     */
    private static boolean takeRole(ActiveRole role, Duration within)
            throws UnsafeTopicException, InterruptedException, ExecutionException, TimeoutException {
        role.join();
        Timer timer = Time.SYSTEM.timer(within);
        while (timer.notExpired()) {
            role.poll();
            if (role.isActive() && role.firstRunDelayMs() == 0) {
                return true;
            }
            timer.update();
        }
        return false;
    }

    /** How many members the agent's group has now (0 when it does not exist). */
    private static int members(ClusterAccess access, String group)
            throws InterruptedException, ExecutionException, TimeoutException {
        int ms = TimeoutMs.of(access.props().requestTimeout());
        try {
            ConsumerGroupDescription d = access.admin()
                    .describeConsumerGroups(List.of(group), new DescribeConsumerGroupsOptions().timeoutMs(ms))
                    .describedGroups()
                    .get(group)
                    .get(ms + 1_000L, TimeUnit.MILLISECONDS);
            return d.members().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return 0;
            }
            throw e;
        }
    }
}
