/**
 * Rolling restarts an operator can script: whether the cluster has recovered from a restart, and whether restarting a
 * broker now is safe, each a verdict with its reasons.
 *
 * <p>Why: operators restart every broker in turn, and a roller that waits for "broker up" instead of "recovered" takes
 * the next broker down while the previous one still catches up; with replication factor 3 and
 * {@code min.insync.replicas} 2 a second loss then refuses {@code acks=all} writes. {@code pacer await-recovery} and
 * {@code pacer restart-check} give a script the two questions to ask between restarts.
 *
 * <p>Layer: a feature, on {@code core} and the engine's cluster types only; the commands read the cluster through the
 * ports and pass it in.
 */
package io.leaderpacer.agent.rolling;
