package io.leaderpacer.agent.metrics;

import io.leaderpacer.agent.core.ElectionOutcome;
import io.leaderpacer.agent.core.ElectionResult;
import io.leaderpacer.agent.core.PacingReport;
import io.leaderpacer.agent.core.RunListener;
import io.leaderpacer.agent.core.RunRecord;
import io.leaderpacer.engine.BrokerGateReport;
import io.leaderpacer.engine.ElectionDecision;
import io.leaderpacer.engine.pacing.BrokerPacing;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.util.HierarchicalNameMapper;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Publishes each run's figures as metrics.
 *
 * <p>Names follow KIP-1358: {@code OutOfSyncPreferredPartitionCount{broker=N}}, {@code GatedBrokerCount},
 * {@code PreferredReplicaImbalanceCount} (gauges, the last run's values) and
 * {@code PreferredLeaderElectionsSkippedByGatePerSec}, {@code PreferredLeaderElectionsDeferredByThrottlePerSec}
 * (counters: every run adds its counts, so their rate is KIP-1358's per-second meter). The agent adds
 * {@code PreferredLeaderElectionResults{outcome=...}} (what Kafka answered per election),
 * {@code LeaderPacerRuns}, {@code LeaderPacerRunFailures} and {@code LeaderPacerRunDuration}, and for catch-up
 * pacing, per broker it paces, {@code CatchUpPacingRateBytes} (0 when not throttled), {@code CatchUpBytesBehind},
 * {@code CatchUpEtaSeconds} (-1 when unknown), with {@code CatchUpPacedBrokerCount} and {@code CatchUpPacingOff}
 * (1 while a missing permission or a failure keeps it from acting).
 * Prometheus appends {@code _total} to counter names.
 */
public final class PacerMetrics implements RunListener, AutoCloseable {

    /** JMX domain of the agent's MBeans. */
    public static final String JMX_DOMAIN = "io.leaderpacer";

    /** Where the meters live (a composite of the JMX and Prometheus registries, or a caller's). */
    private final MeterRegistry registry;
    /** The Prometheus registry for {@link #scrape()}; null when the caller supplied another registry. */
    private final PrometheusMeterRegistry prometheus;
    /** Per-broker out-of-sync gauges' values, created on first sight of a broker. */
    private final Map<Integer, AtomicInteger> outOfSync = new ConcurrentHashMap<>();
    /** Per broker: 1 while gated at the last run. */
    private final Map<Integer, AtomicInteger> gated = new ConcurrentHashMap<>();

    private final AtomicInteger gatedBrokers = new AtomicInteger();
    private final AtomicInteger imbalanced = new AtomicInteger();
    private final Counter skippedByGate;
    private final Counter deferredByThrottle;
    private final Map<ElectionOutcome, Counter> results = new EnumMap<>(ElectionOutcome.class);
    private final Counter runs;
    private final Counter runFailures;
    private final Timer runDuration;
    /** Per broker catch-up pacing saw: rate, bytes behind, ETA; reset to 0 / -1 when it no longer paces it. */
    private final Map<Integer, AtomicLong[]> pacing = new ConcurrentHashMap<>();

    private final AtomicInteger pacedBrokers = new AtomicInteger();
    private final AtomicInteger pacingOff = new AtomicInteger();
    private final Counter pacingLookFailures;

    /** Meters on the given registry; {@code prometheus} (may be null) is what {@link #scrape()} renders. */
    public PacerMetrics(MeterRegistry registry, PrometheusMeterRegistry prometheus) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.prometheus = prometheus;
        Gauge.builder("GatedBrokerCount", gatedBrokers, AtomicInteger::get)
                .description("Brokers the wait-for-sync gate holds back in the last run")
                .register(registry);
        Gauge.builder("PreferredReplicaImbalanceCount", imbalanced, AtomicInteger::get)
                .description("Partitions not led by their effective preferred replica in the last run")
                .register(registry);
        skippedByGate = Counter.builder("PreferredLeaderElectionsSkippedByGatePerSec")
                .description("Elections the gate held back, summed over runs")
                .register(registry);
        deferredByThrottle = Counter.builder("PreferredLeaderElectionsDeferredByThrottlePerSec")
                .description("Valid elections beyond max.per.run, summed over runs")
                .register(registry);
        for (ElectionOutcome o : ElectionOutcome.values()) {
            results.put(
                    o,
                    Counter.builder("PreferredLeaderElectionResults")
                            .tag("outcome", o.name().toLowerCase(Locale.ROOT))
                            .description("Elections sent (or withheld) by the agent, by Kafka's answer")
                            .register(registry));
        }
        runs = Counter.builder("LeaderPacerRuns")
                .description("Runs of the agent")
                .register(registry);
        runFailures = Counter.builder("LeaderPacerRunFailures")
                .description("Runs that failed (cluster unreadable, reorder failed)")
                .register(registry);
        runDuration = Timer.builder("LeaderPacerRunDuration")
                .description("Duration of a run: read, reorder, decide, elect")
                .register(registry);
        Gauge.builder("CatchUpPacedBrokerCount", pacedBrokers, AtomicInteger::get)
                .description("Brokers catch-up pacing throttled at its last look")
                .register(registry);
        Gauge.builder("CatchUpPacingOff", pacingOff, AtomicInteger::get)
                .description("1 while catch-up pacing could not act at its last look (a missing permission, a failure)")
                .register(registry);
        pacingLookFailures = Counter.builder("CatchUpPacingLookFailures")
                .description("Catch-up pacing looks that failed or left a throttle change unconfirmed (tried again at"
                        + " the next look)")
                .register(registry);
    }

    /**
     * Publishes a catch-up pacing look. A look that failed before it decided anything keeps the gauges at the last
     * look's values: the throttles it set are still in place, and a rate gauge at 0 would say they are gone.
     */
    public void onPacing(PacingReport report) {
        pacingOff.set(report.problem().isPresent() ? 1 : 0);
        if (report.failed()) {
            pacingLookFailures.increment();
            if (report.brokers().isEmpty()) {
                return;
            }
        }
        Set<Integer> seen = new HashSet<>();
        int paced = 0;
        for (BrokerPacing b : report.brokers()) {
            seen.add(b.broker());
            AtomicLong[] g = pacingGauges(b.broker());
            g[0].set(b.rateBytes().orElse(0));
            g[1].set(b.progress().bytesBehind().orElse(-1));
            g[2].set(b.progress().etaMs().isPresent() ? b.progress().etaMs().getAsLong() / 1000 : -1);
            g[3].set(report.quota(b.broker())
                    .map(q -> q.setBytes())
                    .orElse(b.rateBytes().isPresent() ? b.rateBytes().getAsLong() : 0));
            g[4].set(
                    b.progress().fetchedBytesPerSecond().isPresent()
                            ? Math.round(b.progress().fetchedBytesPerSecond().getAsDouble())
                            : -1);
            paced += b.rateBytes().isPresent() ? 1 : 0;
        }
        pacedBrokers.set(paced);
        pacing.forEach((broker, g) -> {
            if (!seen.contains(broker)) {
                g[0].set(0);
                g[1].set(0);
                g[2].set(-1);
                g[3].set(0);
                g[4].set(-1);
            }
        });
    }

    private AtomicLong[] pacingGauges(int broker) {
        return pacing.computeIfAbsent(broker, b -> {
            AtomicLong[] g = {
                new AtomicLong(), new AtomicLong(-1), new AtomicLong(-1), new AtomicLong(), new AtomicLong(-1)
            };
            String tag = Integer.toString(b);
            Gauge.builder("CatchUpPacingRateBytes", g[0], AtomicLong::get)
                    .tag("broker", tag)
                    .description("The rate catch-up pacing decided for the broker's catch-up, bytes/s (0: none)")
                    .register(registry);
            Gauge.builder("CatchUpPacingRateSetBytes", g[3], AtomicLong::get)
                    .tag("broker", tag)
                    .description("What catch-up pacing writes into Kafka's replication throttles for the broker's"
                            + " catch-up: the rate decided plus the in-sync bytes Kafka counts on the same quotas,"
                            + " bytes/s (0: none)")
                    .register(registry);
            Gauge.builder("CatchUpFetchedBytes", g[4], AtomicLong::get)
                    .tag("broker", tag)
                    .description("What the broker's out-of-sync replicas fetched since pacing's previous look, bytes/s"
                            + " (-1: unknown)")
                    .register(registry);
            Gauge.builder("CatchUpBytesBehind", g[1], AtomicLong::get)
                    .tag("broker", tag)
                    .description("Bytes the broker's leaders hold beyond it, as pacing last saw them (-1: unknown)")
                    .register(registry);
            Gauge.builder("CatchUpEtaSeconds", g[2], AtomicLong::get)
                    .tag("broker", tag)
                    .description("Seconds until the broker is back in every ISR at its current pace (-1: unknown)")
                    .register(registry);
            return g;
        });
    }

    /** Metrics over JMX (domain {@value #JMX_DOMAIN}) and Prometheus. */
    public static PacerMetrics withJmxAndPrometheus() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JmxMeterRegistry jmx = new JmxMeterRegistry(
                new JmxConfig() {
                    @Override
                    public String get(String key) {
                        return null;
                    }

                    @Override
                    public String domain() {
                        return JMX_DOMAIN;
                    }
                },
                Clock.SYSTEM,
                HierarchicalNameMapper.DEFAULT);
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(prometheus);
        composite.add(jmx);
        return new PacerMetrics(composite, prometheus);
    }

    /** Metrics in Prometheus only (no MBeans): for tests and embedders that run several agents in one JVM. */
    public static PacerMetrics prometheusOnly() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        return new PacerMetrics(prometheus, prometheus);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** The metrics in Prometheus' text exposition format (empty when there is no Prometheus registry). */
    public String scrape() {
        return prometheus == null ? "" : prometheus.scrape();
    }

    @Override
    public void onRun(RunRecord run) {
        runs.increment();
        runDuration.record(Duration.ofNanos(run.timings().totalNanos()));
        if (!run.succeeded()) {
            runFailures.increment();
            return;
        }
        ElectionDecision d = run.decision().orElseThrow();
        gatedBrokers.set(d.gatedBrokerCount());
        imbalanced.set(d.imbalancedCount());
        skippedByGate.increment(d.skippedByGate());
        deferredByThrottle.increment(d.deferredByThrottle());
        Set<Integer> seen = new HashSet<>();
        for (BrokerGateReport r : d.brokers()) {
            seen.add(r.broker());
            brokerGauge(r.broker()).set(r.partitions().outOfSync());
            gatedGauge(r.broker()).set(r.blocksElections() ? 1 : 0);
        }
        outOfSync.forEach((broker, value) -> {
            if (!seen.contains(broker)) {
                value.set(0);
            }
        });
        gated.forEach((broker, value) -> {
            if (!seen.contains(broker)) {
                value.set(0);
            }
        });
        for (ElectionResult r : run.results()) {
            results.get(r.outcome()).increment();
        }
    }

    /** {@code BrokerGated{broker=N}}: 1 while the gate holds the broker's preferred elections back, else 0. */
    private AtomicInteger gatedGauge(int broker) {
        return gated.computeIfAbsent(broker, b -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("BrokerGated", value, AtomicInteger::get)
                    .tag("broker", Integer.toString(b))
                    .description("1 while the gate holds the broker's preferred elections back (last run), else 0")
                    .register(registry);
            return value;
        });
    }

    private AtomicInteger brokerGauge(int broker) {
        return outOfSync.computeIfAbsent(broker, b -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("OutOfSyncPreferredPartitionCount", value, AtomicInteger::get)
                    .tag("broker", Integer.toString(b))
                    .description("Preferred partitions of the broker where it is not in the ISR (last run)")
                    .register(registry);
            return value;
        });
    }

    /**
     * Publishes {@code leader.pacer.agent.active}: 1 while this instance is the active one of its group, else 0.
     * Why a gauge of its own: with several instances, dashboards and alerts must see that exactly one is active.
     */
    public void activeInstanceGauge(BooleanSupplier active) {
        Objects.requireNonNull(active, "active");
        Gauge.builder("leader.pacer.agent.active", () -> active.getAsBoolean() ? 1 : 0)
                .description("1 while this agent instance is the active one of its group, else 0")
                .register(registry);
    }

    /**
     * Publishes {@code CatchUpPacingOwnsThrottles}: 1 while catch-up pacing's ledger records a replication throttle value
     * of its own in the cluster (on the active instance), else 0. Why: with {@code CatchUpPacedBrokerCount} at 0 for
     * long, a 1 here is a throttle left behind, which slows every later catch-up and reassignment.
     */
    public void pacingOwnsGauge(BooleanSupplier owns) {
        Objects.requireNonNull(owns, "owns");
        Gauge.builder("CatchUpPacingOwnsThrottles", () -> owns.getAsBoolean() ? 1 : 0)
                .description("1 while catch-up pacing owns a replication throttle value in the cluster, else 0")
                .register(registry);
    }

    /** Current value of the out-of-sync gauge of a broker (0 for an unknown broker). */
    public int outOfSyncCount(int broker) {
        AtomicInteger v = outOfSync.get(broker);
        return v == null ? 0 : v.get();
    }

    /** Closes the registries (unregisters the MBeans). */
    @Override
    public void close() {
        if (registry instanceof CompositeMeterRegistry composite) {
            composite.getRegistries().forEach(MeterRegistry::close);
        }
        registry.close();
    }
}
