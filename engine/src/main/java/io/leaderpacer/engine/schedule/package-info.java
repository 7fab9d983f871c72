/**
 * When the next run of a periodic controller task happens: Kafka's {@code PeriodicTask} and
 * {@code PeriodicTaskControlManager.nextDelayTimeNs}, with KIP-1358's optional throttled
 * reschedule delay that only the preferred-election task uses.
 */
package io.leaderpacer.engine.schedule;
