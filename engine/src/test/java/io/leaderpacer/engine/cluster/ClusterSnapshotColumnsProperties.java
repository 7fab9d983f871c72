package io.leaderpacer.engine.cluster;

import io.leaderpacer.engine.RandomClusters;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;

/** The snapshot's column view says exactly what its partition objects say. */
class ClusterSnapshotColumnsProperties {

    @Provide
    Arbitrary<ClusterSnapshot> clusters() {
        return RandomClusters.clusters();
    }

    @Property
    void columns_matchThePartitions(@ForAll("clusters") ClusterSnapshot cluster) {
        for (int i = 0; i < cluster.partitions().size(); i++) {
            PartitionState p = cluster.partitions().get(i);
            assertThat(cluster.leaderAt(i)).isEqualTo(p.leader());
            assertThat(cluster.firstReplicaAt(i)).isEqualTo(p.replicaAt(0));
            assertThat(cluster.firstReplicaInIsrAt(i)).isEqualTo(p.isrContains(p.replicaAt(0)));
            assertThat(cluster.reassigningOrDeletingAt(i)).isEqualTo(p.reassigning() || p.topicDeleting());
            assertThat(cluster.brokerIdAt(cluster.firstReplicaIndexAt(i))).isEqualTo(p.replicaAt(0));
            assertThat(cluster.leaderIndexAt(i)).isEqualTo(p.hasLeader() ? cluster.brokerIndexOf(p.leader()) : -1);
            assertThat(cluster.leaderInIsrAt(i)).isEqualTo(p.hasLeader() && p.isrContains(p.leader()));
            assertThat(cluster.isrEmptyAt(i)).isEqualTo(p.isrIsEmpty());
            assertThat(cluster.imbalancedAt(i)).isEqualTo(p.leader() != p.replicaAt(0));
        }
    }
}
