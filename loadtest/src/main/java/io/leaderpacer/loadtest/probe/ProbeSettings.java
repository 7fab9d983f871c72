package io.leaderpacer.loadtest.probe;

/**
 * The probe's sizes: one topic per case, its backlog, the rate the throttled cases set and the cap the capped
 * cases apply.
 *
 * @param restartedBroker the broker that is killed and restarted
 * @param partitions      partitions of each case's topic (replication factor 3, on every broker)
 * @param backlogBytes    bytes written while the broker is down
 * @param rateBytes       the throttled cases' rate, bytes per second
 * @param cpuCapCores     the capped cases' CPU quota for the restarted broker
 */
public record ProbeSettings(
        int restartedBroker, int partitions, long backlogBytes, long rateBytes, double cpuCapCores) {

    public ProbeSettings {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
        if (backlogBytes < 1) {
            throw new IllegalArgumentException("the backlog must be at least 1 byte, got " + backlogBytes);
        }
        if (rateBytes < 1) {
            throw new IllegalArgumentException("the rate must be at least 1 byte/s, got " + rateBytes);
        }
        if (!(cpuCapCores > 0)) {
            throw new IllegalArgumentException("the CPU cap must be > 0 cores, got " + cpuCapCores);
        }
    }
}
