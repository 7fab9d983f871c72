package io.leaderpacer.engine.pacing;

import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacingMode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Invariants of the pacing rule over random settings and random observation sequences of one or two brokers. */
class CatchUpPacerProperties {

    private static final long MIB = 1L << 20;

    record Look(int broker, CatchUpState state, long behindMib, double canary) {
        BrokerSignals signals() {
            return new BrokerSignals(
                    broker,
                    state,
                    state == CatchUpState.CATCHING_UP ? OptionalLong.of(behindMib * MIB) : OptionalLong.empty(),
                    Double.isNaN(canary) ? OptionalDouble.empty() : OptionalDouble.of(canary));
        }
    }

    @Provide
    Arbitrary<CatchUpPacing> configs() {
        Arbitrary<PacingMode> mode = Arbitraries.of(PacingMode.STATIC, PacingMode.ADAPTIVE);
        Arbitrary<Long> min = Arbitraries.longs().between(1, 10);
        Arbitrary<Long> span = Arbitraries.longs().between(0, 100);
        Arbitrary<Double> at = Arbitraries.doubles().between(0, 1);
        Arbitrary<Long> maxWait = Arbitraries.of(0L, 20_000L, 120_000L);
        Arbitrary<Long> any = Arbitraries.longs().between(1, 120);
        return Combinators.combine(mode, min, span, at, maxWait, any, Arbitraries.of(true, false))
                .as((m, lo, sp, a, mw, wild, ordered) -> {
                    long hi = lo + sp;
                    long rate = ordered ? lo + Math.round(sp * a) : wild;
                    return new CatchUpPacing(
                            m,
                            new CatchUpPacing.Rates(rate * MIB, lo * MIB, (ordered ? hi : Math.max(1, hi - 50)) * MIB),
                            1.5,
                            new CatchUpPacing.Timing(2000, mw),
                            MIB);
                });
    }

    @Provide
    Arbitrary<List<List<Look>>> sequences() {
        Arbitrary<Look> look = Combinators.combine(
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.of(CatchUpState.values()),
                        Arbitraries.longs().between(0, 1000),
                        Arbitraries.oneOf(
                                Arbitraries.just(Double.NaN),
                                Arbitraries.doubles().between(0.5, 4)))
                .as(Look::new);
        return look.list()
                .ofMaxSize(2)
                .uniqueElements(Look::broker)
                .list()
                .ofMinSize(1)
                .ofMaxSize(60);
    }

    private static List<PacingDecision> play(CatchUpPacing c, List<List<Look>> seq) {
        List<PacingDecision> out = new ArrayList<>();
        PacingMemory m = PacingMemory.empty();
        for (int i = 0; i < seq.size(); i++) {
            PacingDecision d =
                    CatchUpPacer.decide(seq.get(i).stream().map(Look::signals).toList(), c, m, i * 2000L);
            out.add(d);
            m = d.nextMemory();
        }
        return out;
    }

    @Property
    void everyRate_staysWithinTheMinAndMaxRates(
            @ForAll("configs") CatchUpPacing c, @ForAll("sequences") List<List<Look>> seq) {
        for (PacingDecision d : play(c, seq)) {
            for (BrokerPacing b : d.brokers()) {
                b.rateBytes().ifPresent(r -> assertThat(r).isBetween(c.minRateBytes(), c.ceilingBytes()));
            }
        }
    }

    @Property
    void aBrokerObservedInSync_isNeverThrottled(
            @ForAll("configs") CatchUpPacing c, @ForAll("sequences") List<List<Look>> seq) {
        List<PacingDecision> ds = play(c, seq);
        for (int i = 0; i < seq.size(); i++) {
            for (Look l : seq.get(i)) {
                if (l.state() == CatchUpState.IN_SYNC) {
                    assertThat(ds.get(i).rateFor(l.broker())).isEmpty();
                }
            }
        }
    }

    @Property
    void aResumedMemory_decidesAsTheMemoryItSummarises_exceptWhatItDoesNotCarry(
            @ForAll("configs") CatchUpPacing c, @ForAll("sequences") List<List<Look>> seq) {
        PacingMemory m = PacingMemory.empty();
        for (int i = 0; i < seq.size(); i++) {
            m = CatchUpPacer.decide(seq.get(i).stream().map(Look::signals).toList(), c, m, i * 2000L)
                    .nextMemory();
        }
        PacingMemory resumed = PacingMemory.resumed(m.summary());
        assertThat(resumed.summary()).isEqualTo(m.summary());
        assertThat(resumed.brokers()).isEqualTo(m.brokers());
    }

    @Property
    void theSameLooks_giveTheSameDecisions(
            @ForAll("configs") CatchUpPacing c, @ForAll("sequences") List<List<Look>> seq) {
        assertThat(play(c, seq)).isEqualTo(play(c, seq));
    }

    @Property
    void aCatchUpThatStopsFalling_isRaisedWithinTheStallWindow_orReleasedAtTheMax(
            @ForAll("configs") CatchUpPacing c, @ForAll double canary) {
        double ratio = Double.isNaN(canary) || Double.isInfinite(canary) ? 3.0 : Math.abs(canary) % 5;
        PacingMemory m = PacingMemory.empty();
        long first = -1;
        long last = -1;
        int window = (int) (StallDetector.WINDOW_MS / 2000) + 1;
        for (int i = 0; i <= window * 3; i++) {
            PacingDecision d = CatchUpPacer.decide(
                    List.of(new BrokerSignals(
                            1, CatchUpState.CATCHING_UP, OptionalLong.of(500 * MIB), OptionalDouble.of(ratio))),
                    c,
                    m,
                    i * 2000L);
            m = d.nextMemory();
            if (d.brokers().get(0).phase() == PacingPhase.ESCAPED) {
                return;
            }
            long r = d.rateFor(1).orElseThrow();
            if (i == window) {
                first = r;
            }
            last = r;
        }
        assertThat(last).as("stalled for 3 guard windows").isGreaterThanOrEqualTo(Math.min(c.ceilingBytes(), first));
        if (first < c.ceilingBytes()) {
            assertThat(last).isGreaterThan(first);
        }
    }
}
