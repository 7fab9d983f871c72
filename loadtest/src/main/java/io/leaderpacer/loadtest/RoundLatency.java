package io.leaderpacer.loadtest;

import io.leaderpacer.loadtest.load.LatencyBook;
import io.leaderpacer.loadtest.load.LatencyFigures;
import io.leaderpacer.loadtest.load.Phase;
import io.leaderpacer.loadtest.load.View;
import io.leaderpacer.loadtest.result.RoundResult;
import io.leaderpacer.loadtest.steady.SteadyWindow;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What producers felt in one round, read from its latency book once the round's last second is closed: the phases'
 * figures per view, KIP-1358's window, the distributions behind the charts and the errors since the stop.
 *
 * <p>Apart from {@link RecoveryRound} because it is the one place that knows which phases make which figure (the
 * strict window is {@link Phase#WINDOW}; KIP-1358's adds {@link Phase#KIP_TAIL}; errors count from the stop on).
 */
final class RoundLatency {

    private RoundLatency() {}

    /**
     * The round's latency figures.
     *
     * @param book          the round's book, every send recorded
     * @param steadyWindows the steady phase's window P99s, for the run's pooled reference
     * @param kipWindow     whether the round measured KIP-1358's ten-minute window
     */
    static RoundResult.Latency of(LatencyBook book, List<SteadyWindow> steadyWindows, boolean kipWindow) {
        return new RoundResult.Latency(
                figures(book, Phase.STEADY),
                figures(book, Phase.WINDOW),
                steadyWindows,
                errorsSinceStop(book),
                book.seconds(),
                buckets(book),
                book.histogram(Phase.STEADY, View.ALL).copy(),
                kipWindow ? kipFigures(book) : Map.of());
    }

    private static Map<View, LatencyFigures> figures(LatencyBook book, Phase phase) {
        Map<View, LatencyFigures> out = new EnumMap<>(View.class);
        for (View v : View.values()) {
            out.put(v, LatencyFigures.of(book.histogram(phase, v)));
        }
        return out;
    }

    /** KIP-1358's window, per view: the sends of the strict window and of the tail to ten minutes, together. */
    private static Map<View, LatencyFigures> kipFigures(LatencyBook book) {
        Map<View, LatencyFigures> out = new EnumMap<>(View.class);
        for (View v : View.values()) {
            Histogram h = book.histogram(Phase.WINDOW, v).copy();
            h.add(book.histogram(Phase.KIP_TAIL, v));
            out.put(v, LatencyFigures.of(h));
        }
        return out;
    }

    /** The steady and window distributions in doubling buckets from 0.1 ms, per view. */
    private static List<RoundResult.LatencyBucket> buckets(LatencyBook book) {
        List<RoundResult.LatencyBucket> out = new ArrayList<>();
        for (Phase p : List.of(Phase.STEADY, Phase.WINDOW)) {
            for (View v : View.values()) {
                Histogram h = book.histogram(p, v);
                if (h.getTotalCount() == 0) {
                    continue;
                }
                for (HistogramIterationValue b : h.logarithmicBucketValues(100, 2.0)) {
                    out.add(new RoundResult.LatencyBucket(
                            p, v, b.getValueIteratedTo() / 1000.0, b.getCountAddedInThisIterationStep()));
                }
            }
        }
        return out;
    }

    private static Map<View, Map<String, Long>> errorsSinceStop(LatencyBook book) {
        Map<View, Map<String, Long>> out = new EnumMap<>(View.class);
        for (View v : View.values()) {
            Map<String, Long> merged = new TreeMap<>();
            for (Phase p : List.of(Phase.DOWN, Phase.WINDOW, Phase.KIP_TAIL, Phase.AFTER)) {
                book.errors(p, v).forEach((k, n) -> merged.merge(k, n, Long::sum));
            }
            out.put(v, merged);
        }
        return out;
    }
}
