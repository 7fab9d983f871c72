package io.leaderpacer.simulator.run;

/** Told how far a long simulation has got, for a progress bar. */
@FunctionalInterface
public interface ProgressListener {

    /** Nothing to show. */
    ProgressListener NONE = (label, fraction) -> {};

    /** {@code fraction} of the simulation labelled {@code label} is done (0..1). */
    void progress(String label, double fraction);
}
