package io.leaderpacer.engine;

import java.util.List;

/**
 * What a run's selection produced, before the reports are written: the elections in order, and per broker index
 * the elections granted, held back by the gate and deferred by the cap.
 *
 * <p>Why a value: the run over a snapshot and the run over incremental state select differently (one walks the
 * candidates it collected, the other reads the state's buckets) and must produce the same decision; both hand
 * this to the same finishing step.
 *
 * @param lastStart the broker id round-robin started from this run (the previous one under {@code immediate})
 */
record RunSelection(List<Election> elections, int[] elected, int[] skipped, int[] deferred, int lastStart) {

    /**
     * The counts agree: per broker, none negative, and the elections are the ones counted as elected. Checked on
     * every run (a pass over the brokers): both selections hand their result here, so a selection that loses or
     * double-counts an election fails loudly instead of reporting wrong metrics. The totals are derived, so they
     * cannot disagree with the per-broker counts.
     */
    RunSelection {
        if (skipped.length != elected.length || deferred.length != elected.length) {
            throw new IllegalStateException("per-broker counts of different sizes: " + elected.length + ", "
                    + skipped.length + ", " + deferred.length);
        }
        int electedSum = 0;
        for (int b = 0; b < elected.length; b++) {
            if (elected[b] < 0 || skipped[b] < 0 || deferred[b] < 0) {
                throw new IllegalStateException("negative count at broker index " + b + ": elected " + elected[b]
                        + ", skipped " + skipped[b] + ", deferred " + deferred[b]);
            }
            electedSum += elected[b];
        }
        if (electedSum != elections.size()) {
            throw new IllegalStateException(
                    "counts do not add up: " + elections.size() + " elections, " + electedSum + " counted");
        }
    }

    /**
     * A run of Kafka's loop ({@code immediate}): nothing held back by a gate, round-robin's start unchanged.
     *
     * @param deferred per broker index, the valid elections the cap left for a later run
     */
    static RunSelection capped(List<Election> elections, int[] elected, int[] deferred, int lastStart) {
        return new RunSelection(elections, elected, new int[elected.length], deferred, lastStart);
    }

    /**
     * A run that took from the electable candidates in round-robin: what it did not elect of them is deferred.
     *
     * @param electable per broker index, the valid elections the gate let through (a superset of those elected)
     * @param skipped per broker index, the valid elections the gate held back
     * @param startBroker the broker id round-robin started from
     */
    static RunSelection roundRobin(
            List<Election> elections, int[] elected, int[] electable, int[] skipped, int startBroker) {
        int[] deferred = new int[elected.length];
        for (int b = 0; b < elected.length; b++) {
            // Negative when a broker was given more than it had electable: the constructor refuses it.
            deferred[b] = electable[b] - elected[b];
        }
        return new RunSelection(elections, elected, skipped, deferred, startBroker);
    }

    /** The valid elections the gate held back, over all brokers. */
    int skippedTotal() {
        return sum(skipped);
    }

    /** The valid elections left for a later run, over all brokers. */
    int deferredTotal() {
        return sum(deferred);
    }

    private static int sum(int[] counts) {
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        return total;
    }
}
