package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.pacing.ThrottleEdit.Phase;
import io.leaderpacer.agent.pacing.ThrottleLedger.Change;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottleOp;
import io.leaderpacer.agent.throttle.ThrottleRate;
import io.leaderpacer.agent.throttle.ThrottleReading;
import io.leaderpacer.agent.throttle.ThrottleSide;
import io.leaderpacer.engine.pacing.RateText;
import org.apache.kafka.clients.admin.ConfigEntry;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

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
     * <p>Under someone else's cluster-default rate (on the follower side), no broker gets a rate of pacing's: a
     * per-broker value would take precedence over theirs on that broker, and throttle their lists there at pacing's
     * rate instead (Kafka reads a broker's own value first, then the cluster default: {@code BrokerConfigHandler}). A
     * rate pacing set on a broker before theirs appeared is restored. Pacing uses their rate, and says so.
     *
     * @param scopes      the rate scopes read (the cluster default and the brokers that are up)
     * @param brokerRates the plan's rate per broker on this side
     * @param defaultRate the plan's cluster-default rate on this side
     * @param tolerance   how far a rate of pacing's in force may be from the one wanted and be kept, bytes per second
     * @param now         what the scopes hold
     * @param out         the draft to write into
     * @return per broker read whose rate on this side someone else set, that rate
     */
    Map<Integer, Long> plan(
            Collection<BrokerScope> scopes,
            Map<Integer, Long> brokerRates,
            OptionalLong defaultRate,
            ToLongFunction<Long> tolerance,
            ThrottleReading now,
            PlanDraft out) {
        Map<Integer, Long> foreignRates = new TreeMap<>();
        OptionalLong theirDefault = foreignDefault(now);
        for (BrokerScope scope : scopes) {
            if (!scope.isClusterDefault()
                    && now.failure(scope).isEmpty()
                    && ledger.rate(scope).isEmpty()
                    && current(now, scope).isPresent()) {
                foreignRates.put(
                        Integer.parseInt(scope.brokerId()), current(now, scope).getAsLong());
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
            if (!scope.isClusterDefault()
                    && wanted.isPresent()
                    && theirDefault.isPresent()
                    && !foreignRates.containsKey(Integer.parseInt(scope.brokerId()))) {
                out.notes()
                        .add("the cluster-default " + side.word() + " rate is " + text(theirDefault)
                                + ", set by someone"
                                + " else, and in force on broker " + scope.brokerId() + ": pacing uses it and sets no"
                                + " rate of its own there");
                wanted = OptionalLong.empty();
            }
            plan(scope, wanted, current(now, scope), tolerance, out);
        }
        return foreignRates;
    }

    /** The cluster-default rate on this side when someone else set it (one that could not be read: none known). */
    OptionalLong foreignDefault(ThrottleReading now) {
        BrokerScope d = BrokerScope.clusterDefault();
        if (now.failure(d).isPresent()) {
            return OptionalLong.empty();
        }
        OptionalLong set = current(now, d);
        return set.isPresent() && !ledger.rate(d).map(o -> o.isOurs(set)).orElse(false) ? set : OptionalLong.empty();
    }

    private void plan(
            BrokerScope scope,
            OptionalLong wanted,
            OptionalLong current,
            ToLongFunction<Long> tolerance,
            PlanDraft out) {
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
                if (seen && Math.abs(o.ours() - w) <= tolerance.applyAsLong(w)) {
                    // Near enough: the in-sync bytes a rate carries and the leaders' shares move a little at every
                    // look, and a write (with its ledger records and read-backs) for each would follow noise.
                    w = o.ours();
                }
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
        return scope.isClusterDefault()
                ? "the cluster-default " + side.word() + " rate"
                : "broker " + scope.brokerId() + "'s " + side.word() + " rate";
    }

    static String text(OptionalLong rate) {
        return rate.isPresent() ? RateText.of(rate.getAsLong()) : "none";
    }
}
