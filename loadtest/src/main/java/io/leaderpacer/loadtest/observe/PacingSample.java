package io.leaderpacer.loadtest.observe;

/**
 * One catch-up pacing look at the restarted broker, as the agent decided it.
 *
 * @param atMs        when (the round's clock)
 * @param rateBytes   the follower rate decided for it, bytes per second; -1 when it was not throttled
 * @param bytesBehind its bytes behind as the agent saw them; -1 when unknown
 * @param reason      why, as the agent says it
 * @param problem     why the look failed, or empty
 * @param changes     what the look changed in the cluster's throttles, as the agent logs it ("topic T follower list +
 *                    ..."), joined by "; "; empty when nothing: which lists a rule set, not only the rate it decided
 */
public record PacingSample(
        long atMs, long rateBytes, long bytesBehind, String reason, String problem, String changes) {}
