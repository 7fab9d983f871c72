package io.leaderpacer.simulator.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventQueueTest {

    @Test
    void actions_runByTimeThenSchedulingOrder() {
        EventQueue q = new EventQueue();
        List<String> ran = new ArrayList<>();
        q.at(20, () -> ran.add("b@20"));
        q.at(10, () -> ran.add("a@10"));
        q.at(20, () -> ran.add("c@20"));
        q.at(10, () -> q.after(5, () -> ran.add("d@15")));
        q.runUntil(100);
        assertThat(ran).containsExactly("a@10", "d@15", "b@20", "c@20");
        assertThat(q.nowMs()).isEqualTo(100);
    }

    @Test
    void actionsAfterTheEnd_stayQueued() {
        EventQueue q = new EventQueue();
        List<Long> ran = new ArrayList<>();
        q.at(50, () -> ran.add(q.nowMs()));
        q.at(150, () -> ran.add(q.nowMs()));
        q.runUntil(100);
        assertThat(ran).containsExactly(50L);
        assertThat(q.pending()).isEqualTo(1);
    }

    @Test
    void schedulingInThePast_isRefused() {
        EventQueue q = new EventQueue();
        q.at(10, () -> {});
        q.runUntil(10);
        assertThatThrownBy(() -> q.at(5, () -> {})).hasMessageContaining("before now");
    }

    @Test
    void namedStreams_areReproducibleAndIndependent() {
        RandomStreams a = new RandomStreams(42);
        RandomStreams b = new RandomStreams(42);
        assertThat(a.stream("x").nextLong()).isEqualTo(b.stream("x").nextLong());
        assertThat(a.stream("x").nextLong()).isNotEqualTo(a.stream("y").nextLong());
        assertThat(new RandomStreams(43).stream("x").nextLong())
                .isNotEqualTo(a.stream("x").nextLong());
    }
}
