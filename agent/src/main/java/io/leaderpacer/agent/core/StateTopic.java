package io.leaderpacer.agent.core;

/**
 * The agent's single-partition state topic, as the features that share it agree on it: its default name and how
 * their keys stay apart.
 *
 * <p>Why here: three features keep what must survive a crash in that one compacted topic. Coordination's role is its
 * partition, the deprioritized list's write-ahead order records are keyed by partition, and catch-up pacing's
 * throttle ledger is keyed under {@value #LEDGER_KEY_PREFIX}. Each must know the name and the ledger's prefix, yet
 * none may depend on another; the facts they share live here, at the bottom.
 */
public final class StateTopic {

    /** The state topic's default name. */
    public static final String DEFAULT_NAME = "_leader-pacer-state";

    /**
     * The prefix of every key of catch-up pacing's ledger in the state topic: a ':' never occurs in a topic name, so
     * these keys cannot collide with the order records, which the deprioritized list keys by partition.
     */
    public static final String LEDGER_KEY_PREFIX = "throttle:";

    private StateTopic() {}
}
