package io.leaderpacer.cluster.cpu;

import io.leaderpacer.cluster.process.ShutdownCleanup;

/**
 * What every kind of {@link CpuQuota.Limit} shares: the one process it caps, the cores asked for, and a removal that
 * runs once, whichever comes first of its owner's call and the shutdown hook it registered.
 *
 * <p>Why a base class: a cgroup and a CPU affinity are undone differently, but a second removal must do nothing in
 * both (the hook runs after an owner that already removed the cap), and both leave the hook's list when removed.
 */
abstract class ProcessLimit implements CpuQuota.Limit {

    /** The capped process. */
    protected final long pid;
    /** The cap asked for, in cores. */
    protected final double cores;
    /** Set by the first {@link #remove()}. */
    private boolean removed;

    ProcessLimit(long pid, double cores) {
        this.pid = pid;
        this.cores = cores;
    }

    @Override
    public final long pid() {
        return pid;
    }

    @Override
    public final double cores() {
        return cores;
    }

    @Override
    public final synchronized void remove() {
        if (removed) {
            return;
        }
        removed = true;
        ShutdownCleanup.unregister(this);
        undo();
    }

    /** Puts the process back as it was before the cap; called once, by {@link #remove()}, under its lock. */
    abstract void undo();
}
