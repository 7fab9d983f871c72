package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.pacing.ThrottleEdit.Phase;
import io.leaderpacer.agent.pacing.ThrottleLedger.Change;
import io.leaderpacer.agent.throttle.ThrottleOp;
import io.leaderpacer.agent.throttle.ThrottleSide;

import java.util.ArrayList;
import java.util.List;

/**
 * The mutable collections one planning of one side fills: {@link ReconcilePlanner} for the replica lists and
 * {@link RatePlanner} for the rates write into the same draft, which becomes a {@link ReconcilePlanner.Planned}.
 *
 * @param side   the side planned
 * @param forget ledger changes to record at once
 * @param edits  the changes to send
 * @param notes  what it saw and left alone
 */
record PlanDraft(ThrottleSide side, List<Change> forget, List<ThrottleEdit> edits, List<String> notes) {

    PlanDraft(ThrottleSide side) {
        this(side, new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    }

    /** Adds a change to send, with the ledger records to write before it and after it landed. */
    void edit(ThrottleOp op, Phase phase, List<Change> before, List<Change> after, String description) {
        edits.add(new ThrottleEdit(op, phase, new ThrottleEdit.Records(side, before, after), description));
    }
}
