package io.leaderpacer.agent.dynamic;

import java.util.List;
import java.util.Objects;

/**
 * The agent's state topic exists with settings under which its records could be lost or its writes stall; the
 * agent writes nothing to it and does not start.
 *
 * <p>Why checked and why all problems at once: the state topic holds the only copy of the replica orders the agent
 * changed (KIP-491 reorders), so an unsafe topic must stop the agent before its first write, and the operator must
 * be able to fix everything in one go. {@link #getMessage()} names each problem, its value, what it must be and
 * the {@code kafka-configs.sh} / {@code kafka-topics.sh} command that fixes it.
 */
public final class UnsafeTopicException extends Exception {

    private static final long serialVersionUID = 1L;

    /** The topic checked. */
    private final String topic;
    /** Every problem found, in a fixed order (partitions, replication, policy, min ISR, unclean election). */
    private final transient List<TopicSafetyProblem> problems;

    public UnsafeTopicException(String topic, List<TopicSafetyProblem> problems) {
        super(message(topic, problems));
        this.topic = Objects.requireNonNull(topic, "topic");
        this.problems = List.copyOf(problems);
    }

    public String topic() {
        return topic;
    }

    public List<TopicSafetyProblem> problems() {
        return problems;
    }

    private static String message(String topic, List<TopicSafetyProblem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an unsafe topic has at least one problem");
        }
        StringBuilder sb = new StringBuilder("State topic ")
                .append(topic)
                .append(" is not safe for the agent's state; nothing was written to it. ")
                .append(problems.size())
                .append(problems.size() == 1 ? " problem:" : " problems:");
        for (int i = 0; i < problems.size(); i++) {
            sb.append("\n  ").append(i + 1).append(". ").append(problems.get(i).describe());
        }
        sb.append(
                "\n(Add --command-config <client properties file> to these commands when the cluster needs TLS or SASL.)");
        return sb.toString();
    }
}
