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
 * @param hostedBytes    bytes of its replicas in its log directories ({@code describeLogDirs}), -1 when it did not
 *                       answer (down, or still starting): the catch-up rate is how fast this grows
 * @param bytesBehind    over the partitions it hosts and does not lead, how many bytes their leaders hold beyond its
 *                       replica (-1 when unknown): the backlog still to fetch
 * @param internal       of the partitions it hosts, those of internal topics
 */
public record PartitionSample(
        long atMs,
        BrokerStatus status,
        int preferred,
        int preferredLed,
        int preferredInIsr,
        int hosted,
        int hostedInIsr,
        long hostedBytes,
        long bytesBehind,
        Internal internal) {

    /**
     * The partitions of internal topics the broker hosts: Kafka's own ({@code __consumer_offsets},
     * {@code __transaction_state}, ...) and any topic named from {@code _} (a system's topics, as the agent's state
     * topic): whether pacing should let them catch up first is decided from these.
     *
     * @param hosted       how many it hosts
     * @param inIsr        of them, those whose ISR holds it
     * @param preferred    those whose preferred replica it is
     * @param preferredLed of those, the ones it leads
     */
    public record Internal(int hosted, int inIsr, int preferred, int preferredLed) {

        /** None hosted (also: not counted). */
        public static final Internal NONE = new Internal(0, 0, 0, 0);

        /** Whether a topic counts as internal here. */
        public static boolean isInternal(String topic, boolean kafkaInternal) {
            return kafkaInternal || topic.startsWith("_");
        }
    }

    /** Shifted to another time origin. */
    public PartitionSample at(long newAtMs) {
        return new PartitionSample(
                newAtMs,
                status,
                preferred,
                preferredLed,
                preferredInIsr,
                hosted,
                hostedInIsr,
                hostedBytes,
                bytesBehind,
                internal);
    }

    /** Preferred partitions whose ISR lacks the broker. */
    public int preferredOutOfSync() {
        return preferred - preferredInIsr;
    }
}
