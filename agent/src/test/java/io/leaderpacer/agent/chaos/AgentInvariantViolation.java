package io.leaderpacer.agent.chaos;

/**
 * An invariant of the agent that a run broke; the message names the run, and the partition and broker involved.
 *
 * <p>Why an {@link AssertionError}: it is a test failure, not an error of the code under test's input; thrown on the
 * agent's run thread it is recorded by {@link RunInvariantMonitor} and rethrown on the test's thread.
 */
final class AgentInvariantViolation extends AssertionError {

    private static final long serialVersionUID = 1L;

    AgentInvariantViolation(long run, String what) {
        super("run " + run + ": " + what);
    }
}
