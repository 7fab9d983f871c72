package io.leaderpacer.agent.core;

/**
 * Told about every run of the agent, after it completed (successfully or not).
 *
 * <p>Why: metrics, the demo's live timeline and tests all follow the same runs; the agent calls each listener on
 * its run thread, in registration order, and a listener's exception is logged and otherwise ignored (it must not
 * stop the agent). Keep listeners quick.
 */
@FunctionalInterface
public interface RunListener {

    void onRun(RunRecord run);
}
