package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.agent.core.NotActiveException;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.kafka.ClusterReader;
import io.leaderpacer.agent.kafka.MissingPermissionException;
import io.leaderpacer.agent.kafka.PermissionCheck;
import io.leaderpacer.agent.kafka.RequiredPermission;
import io.leaderpacer.engine.cluster.ClusterSnapshot;
import io.leaderpacer.engine.cluster.PartitionState;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.pacing.CatchUpPacer;
import io.leaderpacer.engine.pacing.PacingDecision;
import io.leaderpacer.engine.pacing.PacingMemory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One look of catch-up pacing at a time: read the cluster, observe the recovering brokers, let the engine decide
 * their rates, bring the follower throttle to that, and report. Never throws but for an interrupt: a failed look is
 * a report with its problem, and the next look tries again.
 *
 * <p>A missing permission turns pacing off for good (until the agent restarts) with one clear error: the agent's
 * leadership pacing goes on without it. What pacing had set is restored where it can be.
 */
public final class PacingLoop {

    private static final Logger LOG = LoggerFactory.getLogger(PacingLoop.class);

    private final ClusterReader reader;
    private final RecoveryObserver observer;
    private final ThrottleReconciler reconciler;
    private final ThrottleLedger ledger;
    /**
     * The canary's topic, never throttled: its replicas on a recovering broker must be back in sync at once, so that
     * the canary measures what writes to in-sync followers feel from the start of the catch-up (throttled with the
     * rest, they came back with the last of it, and the adaptive mode had no signal until then).
     */
    private final Set<String> unthrottled;
    /** The adaptive mode's health signal. */
    private final CanarySignal canary;

    private final Time time;
    private final SecretRedactor redactor;

    private PacingMemory memory = PacingMemory.empty();
    /**
     * What the last look read of the throttle configs that decides how Kafka counts bytes on pacing's quotas: which
     * in-sync replicas are listed, whose rates are in force, which leaders someone else's entries name
     * ({@link QuotaView}).
     */
    private QuotaView quotas = QuotaView.NONE;
    /** When a look may read the brokers only. */
    private final QuietLooks quiet = new QuietLooks();

    private boolean ledgerLoaded;
    /** The brokers the last full look found no longer registered. */
    private volatile Set<Integer> lastGone = Set.of();
    /** Set when the ledger is read anew: the next look goes on with the episodes it records. */
    private boolean resumePending;
    /** How much paced time an episode record may lag behind: a successor's max-wait counts from there. */
    static final long EPISODE_RECORD_EVERY_MS = 2_000;
    /** Set by {@link #takeover()} from the election's thread; acted on by the next look. */
    private volatile boolean takeoverPending;
    /** Set when a missing permission turned pacing off. */
    private String disabled;
    /** Checks what pacing needs beyond the agent's own permissions, once, when it is first on. */
    private final PermissionCheck permissions;

    private boolean permissionsChecked;
    private volatile PacingReport last;
    private final ReportLog reportLog = new ReportLog();

    PacingLoop(
            ClusterReader reader,
            RecoveryObserver observer,
            ThrottleReconciler reconciler,
            ThrottleLedger ledger,
            IntFunction<OptionalDouble> fixedCanary,
            CanarySource canarySource,
            Time time,
            SecretRedactor redactor,
            PermissionCheck permissions) {
        this.permissions = permissions;
        this.reader = reader;
        this.observer = observer;
        this.reconciler = reconciler;
        this.ledger = ledger;
        this.canary = new CanarySignal(fixedCanary, canarySource.factory(), redactor);
        this.unthrottled = canarySource.topic() == null ? Set.of() : Set.of(canarySource.topic());
        this.time = time;
        this.redactor = redactor;
    }

    /** How the adaptive mode's canary is made, and its topic; both null when the agent cannot run one. */
    record CanarySource(Supplier<Canary> factory, String topic) {}

    /** A loop on this Admin client (owned by the caller); the rest has defaults a single agent can use. */
    public static PacingLoopBuilder builder(Admin admin, Duration timeout, int describeBatchTopics) {
        return new PacingLoopBuilder(admin, timeout, describeBatchTopics);
    }

    /** The last look's report, if there was one. */
    public Optional<PacingReport> last() {
        return Optional.ofNullable(last);
    }

    /**
     * Whether pacing owns a throttle value in the cluster now (as far as its ledger knows), but for rates on brokers no
     * longer registered as its last look saw them (no client can restore those before a broker with the id registers).
     */
    public boolean ownsThrottles() {
        return ledgerLoaded && !reconciler.ownsNothing(lastGone);
    }

    /**
     * After a takeover: forget the decisions' memory (as a new controller forgets the gate's), and read the ledger
     * again at the next look, so what the previous instance set is known as pacing's own.
     */
    public void takeover() {
        takeoverPending = true;
    }

    private void afterTakeover() {
        if (takeoverPending) {
            takeoverPending = false;
            memory = PacingMemory.empty();
            ledgerLoaded = false;
            quiet.close();
        }
    }

    /**
     * A look while pacing is off (or turned off): it forgets its decisions and restores what the ledger says it owns
     * (what a crashed instance with pacing on left). A failure to read the ledger or to restore is reported as the
     * look's problem (logged once as a warning, counted in the metrics): a throttle pacing still owns must not be
     * left behind quietly.
     */
    private PacingReport idle(long now) throws InterruptedException {
        memory = PacingMemory.empty();
        quiet.close();
        closeCanary();
        try {
            loadLedgerOnce();
            recordEpisodes(PacingMemory.empty());
            if (!reconciler.hasRecords()) {
                return record(new PacingReport(now, List.of(), List.of(), List.of(), Optional.ofNullable(disabled)));
            }
            ClusterSnapshot snapshot = reader.read();
            ThrottleReconciler.Outcome o = reconciler.restoreAll(active(snapshot), topics(snapshot));
            return record(new PacingReport(
                    now, List.of(), o.changes(), o.notes(), o.problem(Optional.ofNullable(disabled)), o.kind()));
        } catch (ExecutionException e) {
            return record(PacingReport.failed(
                    now, "catch-up pacing (off) could not restore what it set: " + redactor.describe(e.getCause())));
        } catch (TimeoutException | RuntimeException e) {
            return record(PacingReport.failed(
                    now, "catch-up pacing (off) could not restore what it set: " + redactor.describe(e)));
        }
    }

    /**
     * Keeps the open episodes where a successor finds them: a new or closed episode, a rate or escape changed, the
     * peak grown by a tenth, or {@value #EPISODE_RECORD_EVERY_MS} ms more paced time.
     */
    private void recordEpisodes(PacingMemory next) throws InterruptedException, ExecutionException, TimeoutException {
        Map<Integer, PacingMemory.Resumed> now = next.summary();
        Map<Integer, PacingMemory.Resumed> was = ledger.episodes();
        ThrottleLedger.Update u = ledger.update();
        was.keySet().stream().filter(b -> !now.containsKey(b)).forEach(u::forgetEpisode);
        now.forEach((b, r) -> {
            PacingMemory.Resumed w = was.get(b);
            if (w == null
                    || w.rateBytes() != r.rateBytes()
                    || w.escaped() != r.escaped()
                    || w.startMs() != r.startMs()
                    || w.downSinceMs() != r.downSinceMs()
                    || r.pacedMs() - w.pacedMs() >= EPISODE_RECORD_EVERY_MS
                    || r.peakBytes() * 10 > w.peakBytes() * 11) {
                u.ownEpisode(b, r);
            }
        });
        u.commit();
    }

    /** Reads the ledger at the first look after a start or a takeover: what an earlier instance set is pacing's. */
    private void loadLedgerOnce() throws InterruptedException, ExecutionException, TimeoutException {
        if (!ledgerLoaded) {
            reconciler.load();
            ledgerLoaded = true;
            resumePending = true;
        }
    }

    /** One look under these settings; off (or disabled) restores what pacing owns. */
    public PacingReport tick(CatchUpPacing config) throws InterruptedException {
        long now = time.milliseconds();
        afterTakeover();
        if (!config.enabled() || disabled != null) {
            return idle(now);
        }
        try {
            loadLedgerOnce();
            if (resumePending) {
                // A start or a takeover: go on with the episodes the previous instance recorded, so that neither the
                // max-wait's clock nor the rate starts again.
                resumePending = false;
                memory = PacingMemory.resumed(ledger.episodes());
            }
            checkPermissionsOnce();
            if (disabled != null) {
                return idle(now);
            }
            List<String> canaryProblem = new ArrayList<>();
            if (quiet.open() && quiet.mayStayQuiet(reader.brokers(), now)) {
                canary.forLook(config, quiet.brokerIds(), quiet.inSync(), canaryProblem);
                return record(PacingReport.quiet(now, canaryProblem.stream().findFirst()));
            }
            return record(fullLook(config, now, canaryProblem));
        } catch (ExecutionException e) {
            quiet.close();
            if (e.getCause() instanceof AuthorizationException denied) {
                disabled = "catch-up pacing is off: " + redactor.describe(denied) + ". It needs AlterConfigs and"
                        + " DescribeConfigs on the cluster and on the topics (docs/AGENT.md, \"Catch-up pacing\");"
                        + " leadership pacing goes on without it.";
                LOG.error(disabled);
                return record(PacingReport.failed(now, disabled));
            }
            return record(PacingReport.failed(now, "catch-up pacing: " + redactor.describe(e.getCause())));
        } catch (TimeoutException | RuntimeException e) {
            quiet.close();
            return record(PacingReport.failed(now, "catch-up pacing: " + redactor.describe(e)));
        }
    }

    /** At the first look: without the permissions pacing needs, it turns itself off and says what to grant. */
    private void checkPermissionsOnce() throws InterruptedException, ExecutionException, TimeoutException {
        if (permissionsChecked) {
            return;
        }
        permissionsChecked = true;
        List<RequiredPermission> missing = permissions.missingForPacing();
        if (!missing.isEmpty()) {
            disabled = "catch-up pacing is off: the agent's principal lacks "
                    + missing.stream().map(RequiredPermission::describe).collect(Collectors.joining(" and "))
                    + "; grant with: "
                    + missing.stream()
                            .map(m -> m.grantCommand(MissingPermissionException.PRINCIPAL_PLACEHOLDER))
                            .collect(Collectors.joining(" ; "))
                    + ". Leadership pacing goes on without it.";
            LOG.error(disabled);
        }
    }

    /** A look that reads the cluster: observe, decide, plan, and apply what the plan changes. */
    private PacingReport fullLook(CatchUpPacing config, long now, List<String> canaryProblem)
            throws InterruptedException, ExecutionException, TimeoutException {
        ClusterSnapshot snapshot = reader.read();
        boolean inSync = inSync(snapshot);
        IntFunction<OptionalDouble> signal =
                canary.forLook(config, new ArrayList<>(snapshot.registeredBrokerIds()), inSync, canaryProblem);
        RecoveryObservation seen = observer.observe(snapshot, signal, quotas, config.lagTimeMaxMs(), now);
        PacingDecision decision = CatchUpPacer.decide(seen.signals(), config, memory, now);
        Set<String> watched = watched(snapshot, decision, config);
        ThrottlePlan plan = plan(decision, seen, config, snapshot, watched);
        ThrottleReconciler.Outcome o = reconciler.reconcile(plan, seen.active(), watched, topics(snapshot));
        quotas = o.quotas();
        memory = decision.nextMemory();
        recordEpisodes(memory);
        Set<Integer> gone = gone(snapshot);
        lastGone = gone;
        PacingReport report = new PacingReport(
                now,
                decision.brokers(),
                o.changes(),
                concat(concat(o.notes(), plan.notes(config.unthrottledLagBytes())), reconciler.stranded(gone)),
                o.problem(canaryProblem.stream().findFirst()),
                o.kind(),
                plan.quotas());
        quiet.fullLook(snapshot, report, reconciler.ownsNothing(gone), inSync);
        return report;
    }

    /**
     * What a look would decide and change now, changing nothing and remembering nothing (for {@code pacer plan}):
     * a fresh decision, as a new active instance would make it, against what the ledger says pacing owns.
     */
    public PacingReport preview(CatchUpPacing config) throws InterruptedException {
        long now = time.milliseconds();
        try {
            reconciler.load();
            ClusterSnapshot snapshot = reader.read();
            RecoveryObservation seen = observer.observe(snapshot, canary.fixed(), quotas, config.lagTimeMaxMs(), now);
            PacingDecision decision = CatchUpPacer.decide(seen.signals(), config, PacingMemory.empty(), now);
            Set<String> watched = watched(snapshot, decision, config);
            ThrottlePlan plan =
                    ThrottlePlan.of(decision, seen, unthrottled, config, quotas.foreignLeaders(snapshot.partitions()));
            ThrottleReconciler.Outcome o = reconciler.preview(plan, seen.active(), watched, topics(snapshot));
            return new PacingReport(
                    now,
                    decision.brokers(),
                    o.changes(),
                    concat(o.notes(), plan.notes(config.unthrottledLagBytes())),
                    Optional.empty());
        } catch (ExecutionException e) {
            return PacingReport.failed(now, "catch-up pacing: " + redactor.describe(e.getCause()));
        } catch (TimeoutException | RuntimeException e) {
            return PacingReport.failed(now, "catch-up pacing: " + redactor.describe(e));
        }
    }

    /**
     * Restores what pacing owns, as far as the cluster lets it now (the agent stops, or pacing was turned off).
     *
     * @throws NotActiveException when its guard refused a change: another instance holds the group's fence and owns
     *                            what is left
     */
    public PacingReport restore() throws InterruptedException {
        long now = time.milliseconds();
        afterTakeover();
        try {
            loadLedgerOnce();
            // Pacing ends here: a later start opens episodes of its own, with their own max-wait.
            memory = PacingMemory.empty();
            recordEpisodes(PacingMemory.empty());
            if (!reconciler.hasRecords()) {
                return record(new PacingReport(now, List.of(), List.of(), List.of(), Optional.empty()));
            }
            ClusterSnapshot snapshot = reader.read();
            ThrottleReconciler.Outcome o = reconciler.restoreAll(active(snapshot), topics(snapshot));
            quiet.close();
            Set<Integer> gone = gone(snapshot);
            return record(new PacingReport(
                    now,
                    List.of(),
                    o.changes(),
                    concat(o.notes(), reconciler.stranded(gone)),
                    o.problem(
                            reconciler.ownsNothing(gone)
                                    ? Optional.empty()
                                    : Optional.of(
                                            "catch-up pacing could not restore everything"
                                                    + " yet (a broker it throttled is down, or a value could not be read; the notes say which):"
                                                    + " its ledger keeps it for the next active instance, or for pacer restore")),
                    o.kind()));
        } catch (ExecutionException e) {
            return record(PacingReport.failed(
                    now, "catch-up pacing could not restore its throttle: " + redactor.describe(e.getCause())));
        } catch (NotActiveException e) {
            // Deposed (an instance took the group's fence): whoever fenced it owns what is left.
            throw e;
        } catch (TimeoutException | RuntimeException e) {
            return record(PacingReport.failed(
                    now, "catch-up pacing could not restore its throttle: " + redactor.describe(e)));
        }
    }

    /**
     * The plan for a decision, with the leaders whose quota someone else uses as the last look read them. The first
     * look that puts preferred replicas on the leader side reads first (changing nothing), so that not even one look
     * sets a leader rate where someone else's entries would come under it.
     */
    private ThrottlePlan plan(
            PacingDecision decision,
            RecoveryObservation seen,
            CatchUpPacing config,
            ClusterSnapshot snapshot,
            Set<String> watched)
            throws InterruptedException, ExecutionException, TimeoutException {
        ThrottlePlan plan =
                ThrottlePlan.of(decision, seen, unthrottled, config, quotas.foreignLeaders(snapshot.partitions()));
        if (plan.leader().inForce() && !quotas.leaderListsRead()) {
            quotas = reconciler
                    .preview(plan, seen.active(), watched, topics(snapshot))
                    .quotas();
            plan = ThrottlePlan.of(decision, seen, unthrottled, config, quotas.foreignLeaders(snapshot.partitions()));
        }
        return plan;
    }

    /**
     * The topics whose lists a look reads besides pacing's own: those with a replica on a paced broker (their in-sync
     * bytes may count on its follower quota); with the preferred replicas first, every topic (someone else's leader
     * entries may name any leader). None while no broker is paced.
     */
    static Set<String> watched(ClusterSnapshot snapshot, PacingDecision decision, CatchUpPacing config) {
        Set<Integer> paced = new HashSet<>();
        decision.brokers().stream().filter(b -> b.rateBytes().isPresent()).forEach(b -> paced.add(b.broker()));
        Set<String> out = new TreeSet<>();
        if (paced.isEmpty()) {
            return out;
        }
        for (PartitionState p : snapshot.partitions()) {
            if (config.preferredFirst() || hostsAny(p, paced)) {
                out.add(p.id().topic());
            }
        }
        return out;
    }

    private static boolean hostsAny(PartitionState p, Set<Integer> brokers) {
        for (int b : p.replicas()) {
            if (brokers.contains(b)) {
                return true;
            }
        }
        return false;
    }

    /** Whether every registered broker is active and every replica in its partition's ISR: a steady cluster. */
    static boolean inSync(ClusterSnapshot snapshot) {
        if (snapshot.brokers().values().stream().anyMatch(b -> !b.isActive())) {
            return false;
        }
        return snapshot.partitions().stream().allMatch(p -> p.isrSize() == p.replicaCount());
    }

    /** Stops the canary, if it runs. */
    public void closeCanary() {
        canary.close();
    }

    /**
     * The brokers known to be no longer registered: on a cluster that lists its fenced brokers (Kafka 4.0+), those it
     * does not list. On an older cluster a broker that is down cannot be told from one that is gone: none is.
     */
    private Set<Integer> gone(ClusterSnapshot snapshot) {
        if (!reader.listsFencedBrokers()) {
            return Set.of();
        }
        Set<Integer> out = new TreeSet<>(reconciler.rateBrokers());
        out.removeAll(snapshot.registeredBrokerIds());
        return out;
    }

    /** The topics a read of the cluster lists. */
    private static Set<String> topics(ClusterSnapshot snapshot) {
        Set<String> out = new HashSet<>();
        snapshot.partitions().forEach(p -> out.add(p.id().topic()));
        return out;
    }

    private static Set<Integer> active(ClusterSnapshot snapshot) {
        return Set.copyOf(snapshot.brokers().values().stream()
                .filter(b -> b.isActive())
                .map(b -> b.id())
                .toList());
    }

    /**
     * Keeps the report for {@code /status} and logs it: every change, and a note or a problem when it first appears
     * (a look every 2 s would otherwise repeat the same line all through a recovery).
     */
    private PacingReport record(PacingReport r) {
        last = r;
        reportLog.log(r, Optional.ofNullable(disabled));
        return r;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        if (b.isEmpty()) {
            return a;
        }
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
