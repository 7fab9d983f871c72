/**
 * What the cluster did: the restarted broker's state, its partitions' leaders and ISRs sampled through the Admin API,
 * the agent's runs, and from them the recovery timeline (ISR re-entries, gate release, leadership back).
 *
 * <p>Why through the Admin API only: the same observer works on the test's own cluster and on an operator's staging
 * cluster, where nothing else can be assumed.
 */
package io.leaderpacer.loadtest.observe;
