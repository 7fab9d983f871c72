package io.leaderpacer.simulator.run;

/** Told how far a long run has got, for a progress bar. */
@FunctionalInterface
public interface ProgressListener {

    /** Nothing to show. */
    ProgressListener NONE = (label, fraction) -> { };

    /** {@code fraction} of the run labelled {@code label} is done (0..1). */
    void progress(String label, double fraction);
}
