package io.leaderpacer.loadtest.observe;

/**
 * One look at the cluster from the restarted broker's point of view.
 *
 * @param atMs           milliseconds since the round started
 * @param status         the broker's state
 * @param preferred      partitions (all topics) whose preferred replica is the broker
 * @param preferredLed   of them, those it leads
 * @param preferredInIsr of them, those whose ISR holds it
 * @param hosted         partitions it is a replica of
 * @param hostedInIsr    of them, those whose ISR holds it
 */
public record PartitionSample(long atMs, BrokerStatus status, int preferred, int preferredLed, int preferredInIsr,
                              int hosted, int hostedInIsr) {

    /** Preferred partitions whose ISR lacks the broker. */
    public int preferredOutOfSync() {
        return preferred - preferredInIsr;
    }
}
