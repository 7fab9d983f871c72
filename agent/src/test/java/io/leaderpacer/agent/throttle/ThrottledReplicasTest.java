package io.leaderpacer.agent.throttle;

import io.leaderpacer.agent.throttle.ThrottledReplicas.Replica;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThrottledReplicasTest {

    @Test
    void kafkasFormat_readAndWrittenBack() {
        assertThat(ThrottledReplicas.parse("*")).isEqualTo(ThrottledReplicas.ALL);
        assertThat(ThrottledReplicas.parse(" 0:1, 1:2 ,2:0").replicas())
                .containsExactly(new Replica(0, 1), new Replica(1, 2), new Replica(2, 0));
        assertThat(ThrottledReplicas.parse("0:1,1:2").configValue()).isEqualTo("0:1,1:2");
        assertThat(ThrottledReplicas.ALL.configValue()).isEqualTo("*");
        assertThat(ThrottledReplicas.parse("").isEmpty()).isTrue();
    }

    @Test
    void brief_namesAFewEntries_andCountsALongList() {
        List<Replica> eight =
                IntStream.range(0, 8).mapToObj(p -> new Replica(p, 1)).toList();
        assertThat(ThrottledReplicas.brief(eight)).isEqualTo("0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1");
        List<Replica> nine =
                IntStream.range(0, 9).mapToObj(p -> new Replica(p, 1)).toList();
        assertThat(ThrottledReplicas.brief(nine)).isEqualTo("9 entries 0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,...");
    }

    @Test
    void repeatedEntries_areWrittenOnce() {
        assertThat(ThrottledReplicas.of(List.of(new Replica(3, 1), new Replica(3, 1)))
                        .configValue())
                .isEqualTo("3:1");
    }

    @Test
    void notAList_orStarWithEntries_isRefused() {
        assertThatThrownBy(() -> ThrottledReplicas.parse("0:1,*"))
                .hasMessageContaining("'0:1,*' is not a throttled replica list");
        assertThatThrownBy(() -> ThrottledReplicas.parse("0-1")).hasMessageContaining("partition:broker");
        assertThatThrownBy(() -> new ThrottledReplicas(true, List.of(new Replica(0, 1))))
                .hasMessageContaining("takes no entries");
        assertThatThrownBy(() -> new Replica(-1, 0)).hasMessageContaining(">= 0");
    }

    @Test
    void brokerScope_isABrokerOrTheClusterDefault() {
        assertThat(BrokerScope.broker(2).resource().name()).isEqualTo("2");
        assertThat(BrokerScope.clusterDefault().resource().name()).isEmpty();
        assertThat(BrokerScope.clusterDefault().isClusterDefault()).isTrue();
        assertThatThrownBy(() -> new BrokerScope("two")).hasMessageContaining("a broker id or empty");
    }

    @Test
    void fitting_keepsWhatIsThere_thenAddsCandidatesInOrder_untilTheLimit() {
        List<Replica> kept = List.of(new Replica(0, 0));
        List<Replica> candidates = List.of(new Replica(0, 0), new Replica(1, 2), new Replica(10, 2), new Replica(2, 2));

        // "0:0" (3), ",1:2" (7), ",10:2" (12): the next, ",2:2", would make 16
        assertThat(ThrottledReplicas.fitting(kept, candidates, 15))
                .containsExactly(new Replica(0, 0), new Replica(1, 2), new Replica(10, 2));
        assertThat(ThrottledReplicas.fitting(kept, candidates, 16)).hasSize(4);
        assertThat(ThrottledReplicas.fitting(kept, candidates, 2))
                .as("what is there stays, even alone too long")
                .containsExactly(new Replica(0, 0));
        assertThat(ThrottledReplicas.length(ThrottledReplicas.fitting(kept, candidates, 16)))
                .isEqualTo(ThrottledReplicas.of(ThrottledReplicas.fitting(kept, candidates, 16))
                        .configValue()
                        .length());
    }
}
