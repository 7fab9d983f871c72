/**
 * The agent's own durable, cluster-wide storage: compacted topics it creates on first use.
 *
 * <p>Why: KIP-1358 wants the policy keys dynamic and cluster-wide, with the {@code kafka-configs.sh} workflow, but
 * Kafka stores unknown keys in its dynamic broker config and then masks them on describe (an unknown key could be
 * a secret), so an Admin client cannot read them back. The agent therefore keeps its overrides in a compacted topic
 * of its own ({@link io.leaderpacer.agent.dynamic.TopicConfigSource}), which every agent instance reads on every run
 * and {@code pacer config} writes. The same kind of topic holds the deprioritized list's write-ahead state
 * (package {@code io.leaderpacer.agent.reorder}); both go through
 * {@link io.leaderpacer.agent.dynamic.CompactedTopic}: latest value per key, null value = delete, replicated and
 * written with {@code acks=all} so that an acknowledged write survives a broker loss.
 *
 * <p>Layer: a port, above {@code core} and {@code config} and depending on nothing else of the agent. The features
 * that keep state in a compacted topic ({@code coordination}, {@code reorder}, {@code pacing}) use it; what they
 * share about the state topic is in {@link io.leaderpacer.agent.core.StateTopic}.
 */
package io.leaderpacer.agent.dynamic;
