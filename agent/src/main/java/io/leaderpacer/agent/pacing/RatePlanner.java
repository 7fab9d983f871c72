package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.pacing.ThrottleEdit.Phase;
import io.leaderpacer.agent.pacing.ThrottleLedger.Change;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleOp;
import io.leaderpacer.agent.throttle.ThrottleRate;
import io.leaderpacer.agent.throttle.ThrottleReading;
import io.leaderpacer.agent.throttle.ThrottleSide;
import org.apache.kafka.clients.admin.ConfigEntry;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rate half of a look's plan (see {@link ReconcilePlanner} for the rules of both halves): a rate pacing did not
 * set is someone else's and never changed; one it set is kept at the plan's value, restored when the plan no longer
 * wants it, and given up when someone changes it to a third value. Kept apart from the replica lists because the
 * two share nothing but the ledger and the draft they write into.
 */
final class RatePlanner {

    private final ThrottleLedger ledger;
    /** The side it plans: its ledger's. */
    private final ThrottleSide side;

    RatePlanner(ThrottleLedger ledger) {
        this.ledger = ledger;
        this.side = ledger.side();
    }

    /**
     * Plans every rate scope read.
     *
     * @param scopes      the rate scopes read (the cluster default and the brokers that are up)
     * @param brokerRates the plan's rate per broker on this side
     * @param defaultRate the plan's cluster-default rate on this side
     * @param now         what the scopes hold
     * @param out         the draft to write into
     * @return the brokers read whose rate on this side someone else set
     */
    Set<Integer> plan(
            Collection<BrokerScope> scopes,
            Map<Integer, Long> brokerRates,
            OptionalLong defaultRate,
            ThrottleReading now,
            PlanDraft out) {
        Set<Integer> foreignRates = new TreeSet<>();
        for (BrokerScope scope : scopes) {
            if (!scope.isClusterDefault()
                    && now.failure(scope).isEmpty()
                    && ledger.rate(scope).isEmpty()
                    && current(now, scope).isPresent()) {
                foreignRates.add(Integer.parseInt(scope.brokerId()));
            }
            if (now.failure(scope).isPresent()) {
                out.notes()
                        .add(where(scope) + " could not be read ("
                                + ThrottleReading.describe(now.failure(scope).get()) + "): left for the next look");
                continue;
            }
            OptionalLong wanted = scope.isClusterDefault()
                    ? defaultRate
                    : Optional.ofNullable(brokerRates.get(Integer.parseInt(scope.brokerId())))
                            .map(OptionalLong::of)
                            .orElse(OptionalLong.empty());
            plan(scope, wanted, current(now, scope), out);
        }
        return foreignRates;
    }

    private void plan(BrokerScope scope, OptionalLong wanted, OptionalLong current, PlanDraft out) {
        Optional<ThrottleLedger.OwnedRate> owned = ledger.rate(scope);
        if (owned.isPresent()) {
            ThrottleLedger.OwnedRate o = owned.get();
            if (!o.isOurs(current)) {
                if (!current.equals(o.prior())) {
                    out.notes()
                            .add(where(scope) + " was changed by someone else to " + text(current)
                                    + ": pacing stands back from it");
                    out.forget().add(Change.forgetRate(scope));
                    return;
                }
                // Someone set the value it replaced back, after a read had shown pacing's: nothing of pacing's there.
                out.forget().add(Change.forgetRate(scope));
                if (wanted.isPresent()) {
                    setNew(scope, o.prior(), wanted.getAsLong(), out);
                }
                return;
            }
            boolean seen = current.isPresent() && current.getAsLong() == o.ours();
            if (wanted.isPresent()) {
                long w = wanted.getAsLong();
                if (seen && o.ours() == w) {
                    ThrottleLedger.OwnedRate settled = new ThrottleLedger.OwnedRate(o.prior(), w);
                    if (!o.equals(settled)) {
                        out.forget().add(Change.ownRate(scope, settled));
                    }
                    return;
                }
                // A new rate, or the same one again while a read does not show it (it did not land, or the read lags).
                out.edit(
                        ThrottleOp.setRate(side, scope, w),
                        Phase.ADD,
                        List.of(Change.ownRate(scope, o.changedTo(w))),
                        List.of(),
                        where(scope) + " -> " + text(wanted));
                return;
            }
            ThrottleOp op = o.prior().isPresent()
                    ? ThrottleOp.setRate(side, scope, o.prior().getAsLong())
                    : ThrottleOp.removeRate(side, scope);
            out.edit(
                    op,
                    Phase.REMOVE,
                    List.of(),
                    List.of(Change.forgetRate(scope)),
                    where(scope) + " restored to " + text(o.prior()));
            return;
        }
        if (wanted.isEmpty()) {
            return;
        }
        if (current.isPresent()) {
            out.notes()
                    .add(where(scope) + " is " + text(current) + ", set by someone else: pacing uses it and does not"
                            + " change it");
            return;
        }
        setNew(scope, OptionalLong.empty(), wanted.getAsLong(), out);
    }

    /** A rate of pacing's set where it had none: recorded (with the value it replaces) before it is sent. */
    private void setNew(BrokerScope scope, OptionalLong prior, long wanted, PlanDraft out) {
        out.edit(
                ThrottleOp.setRate(side, scope, wanted),
                Phase.ADD,
                List.of(Change.ownRate(scope, new ThrottleLedger.OwnedRate(prior, wanted, List.of(), true))),
                List.of(),
                where(scope) + " -> " + text(OptionalLong.of(wanted)));
    }

    /**
     * Whether a cluster-default rate is set that is not pacing's (pacing's goes in this same look when unwanted); one
     * that could not be read counts as set, so that no {@code *} is set under a rate nobody saw.
     */
    boolean foreignDefaultRate(ThrottleReading now) {
        BrokerScope d = BrokerScope.clusterDefault();
        if (now.failure(d).isPresent()) {
            return true;
        }
        OptionalLong set = current(now, d);
        return set.isPresent() && !ledger.rate(d).map(o -> o.isOurs(set)).orElse(false);
    }

    /** The rate set in exactly this scope (a broker's value inherited from the default does not count). */
    private OptionalLong current(ThrottleReading now, BrokerScope scope) {
        return current(now, side, scope);
    }

    /** The side's rate set in exactly this scope (a broker's value inherited from the default does not count). */
    static OptionalLong current(ThrottleReading now, ThrottleSide side, BrokerScope scope) {
        Optional<ThrottleRate> r = now.settings().rate(side, scope);
        if (r.isEmpty()) {
            return OptionalLong.empty();
        }
        ConfigEntry.ConfigSource source = r.get().source();
        boolean here = scope.isClusterDefault()
                ? source == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
                : source == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG;
        return here ? OptionalLong.of(r.get().bytesPerSecond()) : OptionalLong.empty();
    }

    private String where(BrokerScope scope) {
        String kind = side == ThrottleSide.FOLLOWER ? "follower" : "leader";
        return scope.isClusterDefault()
                ? "the cluster-default " + kind + " rate"
                : "broker " + scope.brokerId() + "'s " + kind + " rate";
    }

    static String text(OptionalLong rate) {
        return rate.isPresent() ? String.format(Locale.ROOT, "%.1f MiB/s", rate.getAsLong() / 1048576.0) : "none";
    }
}
