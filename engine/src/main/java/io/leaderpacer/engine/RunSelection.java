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
record RunSelection(
        List<Election> elections,
        int[] elected,
        int[] skipped,
        int[] deferred,
        int skippedTotal,
        int deferredTotal,
        int lastStart) {}
