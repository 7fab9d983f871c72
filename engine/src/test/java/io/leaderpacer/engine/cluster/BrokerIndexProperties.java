package io.leaderpacer.engine.cluster;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The compact broker index over any ids from 0 to 2^31-1: ascending, dense, and a lookup that agrees with it. */
class BrokerIndexProperties {

    @Provide
    Arbitrary<List<Integer>> ids() {
        Arbitrary<Integer> id = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 20),
                Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.of(0, 7, 100_000_000, Integer.MAX_VALUE));
        return id.list().ofMaxSize(200);
    }

    @Property
    void index_isTheAscendingDistinctIds_andLookupsAgree(
            @ForAll("ids") List<Integer> ids, @ForAll("ids") List<Integer> probes) {
        BrokerIndex index =
                BrokerIndex.of(ids.stream().mapToInt(Integer::intValue).toArray(), ids.size());
        TreeSet<Integer> expected = new TreeSet<>(ids);

        assertThat(index.size()).isEqualTo(expected.size());
        int i = 0;
        for (int id : expected) {
            assertThat(index.idAt(i)).isEqualTo(id);
            assertThat(index.indexOf(id)).isEqualTo(i);
            i++;
        }
        for (int probe : probes) {
            assertThat(index.indexOf(probe))
                    .isEqualTo(
                            expected.contains(probe) ? expected.headSet(probe).size() : -1);
            Integer next = expected.higher(probe);
            int after = index.firstIndexAfter(probe);
            if (expected.isEmpty()) {
                assertThat(after).isEqualTo(-1);
            } else {
                assertThat(index.idAt(after)).isEqualTo(next == null ? expected.first() : next);
            }
        }
        assertThat(index.indexOf(-1)).isEqualTo(-1);
    }
}
