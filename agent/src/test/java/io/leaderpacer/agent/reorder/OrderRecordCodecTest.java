package io.leaderpacer.agent.reorder;

import io.leaderpacer.engine.cluster.PartitionId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderRecordCodecTest {

    private static final PartitionId ORDERS_7 = new PartitionId("orders", 7);

    @Test
    void record_roundTripsThroughKeyAndValue() {
        OrderRecord r = new OrderRecord(
                new PartitionId("my-topic-v2", 12), List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERED);

        String key = OrderRecordCodec.key(r.partition());
        OrderRecord back = OrderRecordCodec.decode(key, OrderRecordCodec.encode(r));

        assertThat(key).isEqualTo("my-topic-v2-12");
        assertThat(back).isEqualTo(r);
    }

    @Test
    void value_isTheDocumentedJson() {
        OrderRecord r = new OrderRecord(ORDERS_7, List.of(2, 0, 1), List.of(0, 1, 2), ReorderStatus.REORDERING);

        assertThat(OrderRecordCodec.encode(r))
                .isEqualTo("{\"version\":1,\"original\":[2,0,1],\"reordered\":[0,1,2],\"status\":\"REORDERING\"}");
    }

    @Test
    void keyWithDashesInTopic_splitsAtLastDash() {
        assertThat(OrderRecordCodec.partitionOf("a-b-c-3")).isEqualTo(new PartitionId("a-b-c", 3));
    }

    @Test
    void keyWithoutPartitionIndex_isRefusedNamingTheKey() {
        assertThatThrownBy(() -> OrderRecordCodec.partitionOf("orders-x"))
                .isInstanceOf(MalformedOrderRecordException.class)
                .hasMessageContaining("'orders-x'")
                .hasMessageContaining("'x' is not a partition index");
        assertThatThrownBy(() -> OrderRecordCodec.partitionOf("orders"))
                .isInstanceOf(MalformedOrderRecordException.class);
        assertThatThrownBy(() -> OrderRecordCodec.partitionOf("-3")).isInstanceOf(MalformedOrderRecordException.class);
    }

    @Test
    void valueNotJson_isRefusedNamingTheKey() {
        assertThatThrownBy(() -> OrderRecordCodec.decode("orders-7", "{oops"))
                .isInstanceOf(MalformedOrderRecordException.class)
                .hasMessageStartingWith("state record 'orders-7': value is not JSON");
    }

    @Test
    void unknownVersion_isRefused() {
        assertThatThrownBy(() -> OrderRecordCodec.decode(
                        "orders-7", "{\"version\":2,\"original\":[1,0],\"reordered\":[0,1],\"status\":\"REORDERED\"}"))
                .isInstanceOf(MalformedOrderRecordException.class)
                .hasMessageContaining("unsupported version 2");
    }

    @Test
    void reorderedNotAPermutationOfOriginal_isRefused() {
        assertThatThrownBy(() -> OrderRecordCodec.decode(
                        "orders-7", "{\"version\":1,\"original\":[1,0],\"reordered\":[0,2],\"status\":\"REORDERED\"}"))
                .isInstanceOf(MalformedOrderRecordException.class)
                .hasMessageContaining("not a reordering of original [1, 0]");
    }

    @Test
    void unknownStatusOrBadBrokerId_isRefused() {
        assertThatThrownBy(() -> OrderRecordCodec.decode(
                        "orders-7", "{\"version\":1,\"original\":[1,0],\"reordered\":[0,1],\"status\":\"DONE\"}"))
                .hasMessageContaining("unknown status");
        assertThatThrownBy(() -> OrderRecordCodec.decode(
                        "orders-7",
                        "{\"version\":1,\"original\":[1,-1],\"reordered\":[-1,1],\"status\":\"REORDERED\"}"))
                .hasMessageContaining("'original' holds -1, not a broker id");
        assertThatThrownBy(() -> OrderRecordCodec.decode(
                        "orders-7", "{\"version\":1,\"reordered\":[0,1],\"status\":\"REORDERED\"}"))
                .hasMessageContaining("'original' is missing");
    }

    @Test
    void tombstone_isNotARecord() {
        assertThatThrownBy(() -> OrderRecordCodec.decode("orders-7", null))
                .isInstanceOf(MalformedOrderRecordException.class)
                .hasMessageContaining("tombstone");
    }
}
