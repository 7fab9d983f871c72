package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.config.SecretRedactor;
import io.leaderpacer.engine.config.CatchUpPacing;
import io.leaderpacer.engine.config.PacingMode;
import org.apache.kafka.common.errors.AuthorizationException;

import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The health signal the adaptive mode steers by, one look at a time: the agent's own {@link Canary} while the mode is
 * adaptive (started on the first such look, refreshed on each, stopped when the mode changes), else a fixed signal
 * (none, or a test's). Kept out of {@link PacingLoop} because the canary has a life of its own (a producer, a topic,
 * permissions) that the look only asks for a number.
 */
final class CanarySignal {

    /** The signal when no canary of the agent's own runs. */
    private final IntFunction<OptionalDouble> fixed;
    /** Makes the adaptive mode's canary; null when the agent has no client settings to produce with. */
    private final Supplier<Canary> factory;

    private final SecretRedactor redactor;
    /** The running canary, while the mode is adaptive. */
    private Canary canary;

    CanarySignal(IntFunction<OptionalDouble> fixed, Supplier<Canary> factory, SecretRedactor redactor) {
        this.fixed = fixed;
        this.factory = factory;
        this.redactor = redactor;
    }

    /** The signal when no canary of the agent's own runs: what a preview or a restore look observes with. */
    IntFunction<OptionalDouble> fixed() {
        return fixed;
    }

    /**
     * The signal for this look. A canary that cannot run (no permission to create or write its topic) gives no
     * signal, and the adaptive mode holds its rate; {@code problem} gets why.
     */
    IntFunction<OptionalDouble> forLook(
            CatchUpPacing config, List<Integer> brokers, boolean clusterInSync, List<String> problem)
            throws InterruptedException {
        boolean wanted = config.mode() == PacingMode.ADAPTIVE && factory != null;
        if (!wanted) {
            close();
            return fixed;
        }
        try {
            if (canary == null) {
                canary = factory.get();
            }
            canary.start(brokers);
            canary.refresh(clusterInSync);
            return canary;
        } catch (ExecutionException e) {
            problem.add(problem(e.getCause(), redactor.describe(e.getCause())));
            return fixed;
        } catch (TimeoutException | RuntimeException e) {
            problem.add("catch-up pacing's canary: " + redactor.describe(e));
            return fixed;
        }
    }

    /**
     * What the report says when Kafka refused the canary. Only a refusal is about permissions: anything else (a
     * topic just created and not yet on every broker) is tried again at the next look, and naming ACLs for it would
     * send the operator the wrong way.
     */
    static String problem(Throwable cause, String described) {
        String next = cause instanceof AuthorizationException
                ? "it needs Create, Write and Describe on its topic"
                : "it is tried again at the next look";
        return "catch-up pacing's canary cannot run (" + described + "): the adaptive mode holds its rate; " + next;
    }

    /** Stops the canary, if it runs. */
    void close() {
        if (canary != null) {
            canary.close();
            canary = null;
        }
    }
}
