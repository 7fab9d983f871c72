package io.leaderpacer.agent.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.leaderpacer.agent.core.CatchUpQuota;
import io.leaderpacer.engine.BrokerGateReport.PartitionCounts;
import io.leaderpacer.engine.BrokerGateReport.RunCounts;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON of one broker's line on {@code /status}: a flat object, as agents and {@code pacer status} of earlier
 * versions write and read it, whatever the record's grouping.
 */
class StatusReportJsonTest {

    private static final String FLAT = "{\"broker\":1,\"active\":true,\"preferredPartitions\":45,\"imbalanced\":15,"
            + "\"outOfSync\":9,\"outOfSyncPercent\":20.0,\"thresholdPercent\":5.0,\"phase\":\"GATED\","
            + "\"reason\":\"gated for 30000 ms\",\"gatedSince\":\"2026-01-01T00:00:00Z\",\"gatedActiveMs\":30000,"
            + "\"leaders\":30,\"elected\":1,\"skippedByGate\":15,\"deferredByThrottle\":2}";

    private static final StatusReport.BrokerStatus LINE = new StatusReport.BrokerStatus(
            1,
            true,
            new PartitionCounts(45, 15, 9),
            new StatusReport.GateStatus(20.0, 5.0, "GATED", "gated for 30000 ms", "2026-01-01T00:00:00Z", 30000),
            30,
            new RunCounts(1, 15, 2));

    @Test
    void brokerLine_isWrittenAsOneFlatObject_inTheEarlierFieldOrder() throws Exception {
        assertThat(new ObjectMapper().writeValueAsString(LINE)).isEqualTo(FLAT);
    }

    @Test
    void flatObjectOfAnEarlierAgent_readsAsTheSameLine() throws Exception {
        assertThat(new ObjectMapper().readValue(FLAT, StatusReport.BrokerStatus.class))
                .isEqualTo(LINE);
    }

    @Test
    void pacingLook_readsBackAsTheSameReport() throws Exception {
        StatusReport.PacingStatus pacing = new StatusReport.PacingStatus(
                "2026-01-01T00:05:02Z",
                null,
                List.of(new StatusReport.PacedBroker(
                        2,
                        "PACED",
                        20L << 20,
                        "static 20.0 MiB/s",
                        new StatusReport.PacedProgress(600L << 20, null, null, null, 19.5 * (1 << 20)),
                        24L << 20,
                        4L << 20)),
                List.of("broker 2's follower rate -> 20.0 MiB/s"),
                List.of(),
                false,
                false);
        ObjectMapper json = new ObjectMapper();

        StatusReport.PacingStatus read =
                json.readValue(json.writeValueAsString(pacing), StatusReport.PacingStatus.class);

        assertThat(read).isEqualTo(pacing);
        assertThat(read.toReport().brokers().get(0).rateBytes()).hasValue(20L << 20);
        assertThat(read.toReport().brokers().get(0).progress().etaMs()).isEmpty();
        assertThat(read.toReport().quota(2)).hasValue(new CatchUpQuota(20L << 20, 24L << 20, 4L << 20));
        assertThat(read.toReport().brokers().get(0).progress().fetchedBytesPerSecond())
                .hasValue(19.5 * (1 << 20));
    }

    @Test
    void quietLook_readsBackQuiet_andAnEarlierAgentsLookWithoutTheFieldReadsAsAFullOne() throws Exception {
        ObjectMapper json = new ObjectMapper();
        StatusReport.PacingStatus quiet = new StatusReport.PacingStatus(
                "2026-01-01T00:05:02Z", null, List.of(), List.of(), List.of(), true, false);
        String earlier = "{\"at\":\"2026-01-01T00:05:02Z\",\"brokers\":[],\"changes\":[],\"notes\":[]}";

        assertThat(json.readValue(json.writeValueAsString(quiet), StatusReport.PacingStatus.class)
                        .toReport()
                        .quiet())
                .isTrue();
        assertThat(json.readValue(earlier, StatusReport.PacingStatus.class)
                        .toReport()
                        .quiet())
                .isFalse();
    }
}
