package io.leaderpacer.simulator.calibrate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Worked by hand: a broker restarted at 10 s and unfenced at 12 s, 100 MiB behind at its first look (11 s) and 80 MiB
 * at unfencing (it fetched before it was unfenced), then 40 MiB per second; at 14 s 0 MiB are left.
 */
class MeasuredCatchUpTest {

    private static final String ROUNDS = "policy,round,restarted_at_s,unfenced_at_s\nimmediate,1,10,12\n";

    private static void write(Path dir, String partitions) throws IOException {
        Files.writeString(dir.resolve("rounds.csv"), ROUNDS);
        Files.writeString(dir.resolve("partitions.csv"), partitions);
    }

    @Test
    void byteSamples_giveWhatWasBehind_whenItWasDone_andTheRate(@TempDir Path dir) throws IOException {
        long mib = 1 << 20;
        write(
                dir,
                "policy,round,at_s,hosted_bytes,bytes_behind\n"
                        + "immediate,1,9.5,,\n"
                        + "immediate,1,11," + 20 * mib + "," + 100 * mib + "\n"
                        + "immediate,1,12," + 40 * mib + "," + 80 * mib + "\n"
                        + "immediate,1,13," + 80 * mib + "," + 40 * mib + "\n"
                        + "immediate,1,14," + 120 * mib + ",0\n");
        List<MeasuredCatchUp.Round> rounds = MeasuredCatchUp.read(dir);
        assertThat(rounds).hasSize(1);
        MeasuredCatchUp.Round r = rounds.get(0);
        assertThat(r.behindAtFirstLookMiB()).isEqualTo(100);
        assertThat(r.behindAtUnfenceMiB()).isEqualTo(80);
        assertThat(r.doneSeconds()).isEqualTo(2);
        assertThat(r.meanMBps()).isCloseTo(80 * mib / 2.0 / 1e6, within(1e-9));
        assertThat(r.byLeading().noneMBps()).as("no preferred_led column").isNaN();
        assertThat(r.byLeading().manyMBps()).isNaN();
    }

    @Test
    void policyWithSettings_quotedWithItsCommas_isOneRoundOfThatPolicy(@TempDir Path dir) throws IOException {
        long mib = 1 << 20;
        String policy =
                "kip-example-scaled:leader.imbalance.election.max.per.run=15,leader.imbalance.election.throttle.interval.ms=1000";
        String q = '"' + policy + '"';
        Files.writeString(dir.resolve("rounds.csv"), "policy,round,restarted_at_s,unfenced_at_s\n" + q + ",2,10,12\n");
        Files.writeString(
                dir.resolve("partitions.csv"),
                "policy,round,at_s,hosted_bytes,bytes_behind\n"
                        + q + ",2,12," + 40 * mib + "," + 80 * mib + "\n"
                        + q + ",2,14," + 120 * mib + ",0\n");
        List<MeasuredCatchUp.Round> rounds = MeasuredCatchUp.read(dir);
        assertThat(rounds).singleElement().satisfies(r -> {
            assertThat(r.policy()).isEqualTo(policy);
            assertThat(r.round()).isEqualTo(2);
            assertThat(r.doneSeconds()).isEqualTo(2);
        });
    }

    /**
     * Unfenced at 12 s with 200 MB behind, 10 preferred partitions: 12-13 s leading none, 100 MB gained; 13-14 s
     * leading 1 (few), 60 MB; 14-15 s leading 5 (many), 40 MB, done.
     */
    @Test
    void leadershipSamples_splitTheRateByWhatTheBrokerLedAtEachIntervalsStart(@TempDir Path dir) throws IOException {
        write(
                dir,
                "policy,round,at_s,preferred,preferred_led,hosted_bytes,bytes_behind\n"
                        + "immediate,1,12,10,0,0,200000000\n"
                        + "immediate,1,13,10,1,100000000,100000000\n"
                        + "immediate,1,14,10,5,160000000,40000000\n"
                        + "immediate,1,15,10,5,200000000,0\n"
                        + "immediate,1,16,10,10,200000000,0\n");
        MeasuredCatchUp.Round r = MeasuredCatchUp.read(dir).get(0);
        assertThat(r.meanMBps()).isCloseTo(200.0 / 3, within(1e-9));
        assertThat(r.byLeading().noneMBps()).isCloseTo(100, within(1e-9));
        assertThat(r.byLeading().fewMBps()).isCloseTo(60, within(1e-9));
        assertThat(r.byLeading().manyMBps())
                .as("the interval after done is not counted")
                .isCloseTo(40, within(1e-9));
    }

    @Test
    void olderRunWithoutByteColumns_givesNoRounds(@TempDir Path dir) throws IOException {
        write(dir, "policy,round,at_s,hosted,hosted_in_isr\nimmediate,1,11,3,3\n");
        assertThat(MeasuredCatchUp.read(dir)).isEmpty();
    }

    @Test
    void neverCaughtUp_hasNoDoneTimeAndNoRate(@TempDir Path dir) throws IOException {
        write(
                dir,
                "policy,round,at_s,hosted_bytes,bytes_behind\nimmediate,1,12,0," + (50L << 20) + "\n"
                        + "immediate,1,13," + (10L << 20) + "," + (40L << 20) + "\n");
        MeasuredCatchUp.Round r = MeasuredCatchUp.read(dir).get(0);
        assertThat(r.doneSeconds()).isNaN();
        assertThat(r.meanMBps()).isNaN();
    }
}
