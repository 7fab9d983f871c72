/**
 * The policy's configuration: the seven {@code leader.imbalance.*} and
 * {@code preferred.leader.*} keys of KIP-1358 and KIP-491, typed and validated, plus two named
 * variants of the gate that the simulator compares against the default reading.
 *
 * <p>A configuration is an immutable value. "Dynamic" means a caller replaces the value it holds
 * with {@link io.leaderpacer.engine.config.PacerConfig#withUpdates(java.util.Map)} and passes the
 * new one to the next run; a rejected update throws and leaves the caller's old value untouched.
 */
package io.leaderpacer.engine.config;
