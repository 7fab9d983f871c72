package io.leaderpacer.simulator.run;

import io.leaderpacer.simulator.scenario.Scenario;
import io.leaderpacer.simulator.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Time-outs emerge from queueing: a broker offered more than it can serve carries the excess as a backlog that
 * grows without a cap, so its requests end up waiting past request.timeout.ms; at 90 % nothing queues up.
 *
 * <p>Worked by hand. Three brokers, replication factor 3, network-in 100 MB/s (the binding resource; disk and
 * request handling are ample). Every alive broker takes in the whole produce rate: a third led plus two thirds as
 * follower with three brokers, a half plus a half with two. At 110 MB/s each is offered 1.10 of its capacity, so
 * its backlog grows 0.1 s per second from the start: past 40 s by t = 400 s. Every acks=all write waits on all
 * three brokers, so from then on a request's mean latency is over 40 s and its median (the log-normal spread with
 * sigma 0.6 puts the median at e^(-0.18) = 0.835 of the mean) over 33 s: more than half of the 300 requests per
 * second time out over the last 500 s of the run, more than 75,000. At 90 MB/s each broker is offered 0.90 (the
 * restarted one at most catchUpTargetUtilisation 0.97 while it catches up): no backlog, a queueing term of
 * 1.5 ms / (1 - 0.9) = 15 ms, and not one request near 30 s.
 */
class OverloadTimeoutTest {

    private static Scenario scenario(double produceMBps) {
        return new ScenarioLoader()
                .parse(
                        "overload.yaml",
                        String.join(
                                "\n",
                                "name: overload",
                                "seed: 7",
                                "cluster: {brokers: 3}",
                                "topics:",
                                "  - name: t",
                                "    partitions: 30",
                                "    replicationFactor: 3",
                                "    produceMBps: " + produceMBps,
                                "    produceRequestsPerSecond: 300",
                                "model: {networkInMBps: 100, diskWriteMBps: 100000, requestTimeoutMs: 30000, tickMs: 1000}",
                                "timeline: {end: 15m, events: [{at: 1m, restart: {broker: 0, down: 10s}}]}",
                                "policies: [immediate]",
                                ""));
    }

    private static ScenarioResult run(double produceMBps) {
        Scenario s = scenario(produceMBps);
        return new ScenarioRunner(ProgressListener.NONE).run(s, s.seed());
    }

    @Test
    void offeredAboveCapacityForMinutes_requestsTimeOut() {
        ScenarioResult r = run(110);
        assertThat(r.baseline().kip().timeoutCount()).isGreaterThan(75_000);
        assertThat(r.acceptance(r.baseline()).timeoutsOk()).isFalse();
    }

    @Test
    void offeredAtNinetyPercent_noRequestTimesOut() {
        ScenarioResult r = run(90);
        assertThat(r.baseline().kip().timeoutCount()).isZero();
        assertThat(r.acceptance(r.baseline()).timeoutsOk()).isTrue();
        assertThat(r.baseline().kip().windowP99Ms()).isLessThan(1000);
    }
}
