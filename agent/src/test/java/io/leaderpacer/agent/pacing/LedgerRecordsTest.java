package io.leaderpacer.agent.pacing;

import io.leaderpacer.agent.pacing.ThrottleLedger.OwnedAll;
import io.leaderpacer.agent.pacing.ThrottleLedger.OwnedEntries;
import io.leaderpacer.agent.pacing.ThrottleLedger.OwnedRate;
import io.leaderpacer.agent.throttle.BrokerScope;
import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;
import io.leaderpacer.engine.pacing.PacingMemory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ledger's records as they stand in the state topic: a successor of another version reads what a killed instance
 * wrote, so the written form is pinned here, and records of earlier forms still read.
 */
class LedgerRecordsTest {

    @Test
    void aRateSeenAndOneStillUnseen_areWrittenInOneFixedForm_andReadBack() {
        OwnedRate seen = new OwnedRate(OptionalLong.empty(), 20_971_520);
        OwnedRate unseen = new OwnedRate(OptionalLong.of(1_000), 5_242_880, List.of(20_971_520L), true);

        assertThat(LedgerRecords.encode(seen)).isEqualTo("{\"prior\":null,\"ours\":20971520}");
        assertThat(LedgerRecords.encode(unseen))
                .isEqualTo("{\"prior\":1000,\"ours\":5242880,\"was\":[20971520],\"unseen\":true}");
        assertThat(LedgerRecords.rate(LedgerRecords.encode(seen))).isEqualTo(seen);
        assertThat(LedgerRecords.rate(LedgerRecords.encode(unseen))).isEqualTo(unseen);
    }

    @Test
    void aRateRecordOfEarlierForms_aSingleWasAndNoUnseen_readsAsItMeant() {
        assertThat(LedgerRecords.rate("{\"prior\":null,\"ours\":7,\"was\":3}"))
                .isEqualTo(new OwnedRate(OptionalLong.empty(), 7, List.of(3L), false));
        assertThat(LedgerRecords.rate("{\"ours\":7}")).isEqualTo(new OwnedRate(OptionalLong.empty(), 7));
    }

    @Test
    void entries_areWrittenSortedByPartitionThenBroker_whateverTheSetsOrder() {
        OwnedEntries owned = new OwnedEntries(
                Set.of(new Replica(3, 2), new Replica(0, 2), new Replica(0, 1)),
                true,
                true,
                Set.of(new Replica(5, 2), new Replica(1, 2)));

        String written = LedgerRecords.encode(owned);

        assertThat(written)
                .isEqualTo(
                        "{\"added\":\"0:1,0:2,3:2\",\"listWasAbsent\":true,\"unseen\":true,\"removed\":\"1:2,5:2\"}");
        assertThat(LedgerRecords.entries(written)).isEqualTo(owned);
        assertThat(LedgerRecords.entries("{\"added\":\"4:2\",\"listWasAbsent\":false}"))
                .isEqualTo(new OwnedEntries(Set.of(new Replica(4, 2)), false));
    }

    @Test
    void aStarList_keepsTheValueItReplaced_orNoneWhenThereWasNoList() {
        OwnedAll replaced = new OwnedAll(Optional.of("0:1, 1:2"));
        OwnedAll none = new OwnedAll(Optional.empty(), true);

        assertThat(LedgerRecords.encode(replaced)).isEqualTo("{\"prior\":\"0:1, 1:2\"}");
        assertThat(LedgerRecords.encode(none)).isEqualTo("{\"prior\":null,\"unseen\":true}");
        assertThat(LedgerRecords.all(LedgerRecords.encode(replaced))).isEqualTo(replaced);
        assertThat(LedgerRecords.all(LedgerRecords.encode(none))).isEqualTo(none);
    }

    @Test
    void anEpisode_isWrittenWithEveryFieldASuccessorResumesFrom() {
        PacingMemory.Resumed episode = new PacingMemory.Resumed(1_000, 250, 5_242_880, true, 9_000);

        String written = LedgerRecords.encode(episode);

        assertThat(written)
                .isEqualTo("{\"startMs\":1000,\"pacedMs\":250,\"rate\":5242880,\"escaped\":true,\"peak\":9000}");
        assertThat(LedgerRecords.episode(written)).isEqualTo(episode);
    }

    @Test
    void keys_nameTheRecordKindAndItsSubject_andARateKeyReadsBackToItsScope() {
        assertThat(LedgerRecords.rateKey(BrokerScope.clusterDefault())).isEqualTo("rate:default");
        assertThat(LedgerRecords.rateKey(BrokerScope.broker(2))).isEqualTo("rate:2");
        assertThat(LedgerRecords.entriesKey("payments")).isEqualTo("replicas:payments");
        assertThat(LedgerRecords.allKey("payments")).isEqualTo("all:payments");
        assertThat(LedgerRecords.episodeKey(2)).isEqualTo("episode:2");
        assertThat(LedgerRecords.rateScope("rate:default")).isEqualTo(BrokerScope.clusterDefault());
        assertThat(LedgerRecords.rateScope("rate:2")).isEqualTo(BrokerScope.broker(2));
    }

    @Test
    void anUnreadableRecord_failsNamingTheRecord() {
        assertThatThrownBy(() -> LedgerRecords.rate("{not json"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("unreadable catch-up pacing record")
                .hasMessageContaining("{not json");
    }
}
