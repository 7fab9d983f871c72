/**
 * A seeded, bounded chaos test of the agent on a real in-JVM KRaft cluster.
 *
 * <p>Why a package of its own: the chaos tests are the one place where faults (broker restarts, slow followers,
 * changes of the deprioritized list, stops and crashes of the active one of several coordinated agents) come from
 * a random plan rather than a hand-written scenario. The plan
 * ({@link io.leaderpacer.agent.chaos.ChaosSchedule}) is a pure function of one seed, so a failure is reproduced by
 * its seed; the invariants ({@link io.leaderpacer.agent.chaos.InvariantChecks}) are pure functions of what one
 * run saw and decided, so each can be shown to fail on a hand-made run before it is trusted on a real one; so are
 * the checks across coordinated instances ({@link io.leaderpacer.agent.chaos.FailoverChecks}), on a hand-made
 * timeline of runs.
 */
package io.leaderpacer.agent.chaos;
