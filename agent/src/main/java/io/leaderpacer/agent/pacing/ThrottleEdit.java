package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.throttle.ThrottleOp;
import io.leaderpacer.agent.throttle.ThrottleSide;

import java.util.List;
import java.util.Objects;

/**
 * One change pacing decided to make to one throttle key, with what its ledger must record before the change is sent
 * and after it landed: a decision as a value, made by {@link ReconcilePlanner} and carried out by
 * {@link ThrottleReconciler} in requests of the size Kafka takes.
 *
 * <p>Why "before" and "after": a change refused, failed, timed out or cut short by a crash must leave the ledger
 * covering whatever is in the cluster, so that the next look (of this instance or of the next) restores it. What a
 * change adds to pacing's ownership is recorded before it is sent; what it gives up, after it landed.
 *
 * @param op          the change
 * @param phase       when in the look it is sent
 * @param records     what the ledger of its side records around it
 * @param description one line for the log and {@code /status}
 */
record ThrottleEdit(ThrottleOp op, Phase phase, Records records, String description) {

    /**
     * What the ledger of one side records around an edit.
     *
     * @param side   the side whose ledger records it (the leader side's values have a ledger of their own)
     * @param before recorded before the edit is sent
     * @param after  recorded once it landed
     */
    record Records(ThrottleSide side, List<ThrottleLedger.Change> before, List<ThrottleLedger.Change> after) {
        Records {
            Objects.requireNonNull(side, "side");
            before = List.copyOf(before);
            after = List.copyOf(after);
        }
    }

    /** The ledger changes recorded before it is sent. */
    List<ThrottleLedger.Change> before() {
        return records.before();
    }

    /** The ledger changes recorded once it landed. */
    List<ThrottleLedger.Change> after() {
        return records.after();
    }

    /** The side whose ledger records it. */
    ThrottleSide side() {
        return records.side();
    }

    /**
     * The order of a look's changes. Additions first, removals after: a list's new entries are in place before the
     * old ones go (never a {@code SET} of a whole list read a moment ago, which would drop an entry someone else added
     * meanwhile), and a broker's own rate is in force before the cluster default that covered it is removed.
     */
    enum Phase {
        /** Rates set, entries appended, a list pacing owns set whole. */
        ADD,
        /** Entries subtracted, lists and rates removed or set back. */
        REMOVE
    }

    ThrottleEdit {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(records, "records");
        Objects.requireNonNull(description, "description");
    }
}
