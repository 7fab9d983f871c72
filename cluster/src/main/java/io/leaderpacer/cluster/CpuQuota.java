package io.leaderpacer.cluster;

/** Placeholder. */
public final class CpuQuota {
    /** Placeholder. */
    public interface Limit extends AutoCloseable {
    }
}
