package io.leaderpacer.agent;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OpenedResourcesTest {

    @Test
    void threeResources_closeNewestFirst_andOnlyOnce() {
        List<String> closed = new ArrayList<>();
        OpenedResources resources = new OpenedResources();
        resources.add(() -> closed.add("admin"));
        resources.add(() -> closed.add("store"));
        resources.add(() -> closed.add("agent"));

        resources.close();
        resources.close();

        assertThat(closed).containsExactly("agent", "store", "admin");
    }

    @Test
    void partFailingToClose_isReported_andTheOthersStillClose() {
        List<String> closed = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        OpenedResources resources = new OpenedResources(failures::add);
        resources.add(() -> closed.add("admin"));
        resources.add(() -> {
            throw new IllegalStateException("store would not close");
        });
        resources.add(() -> closed.add("agent"));

        resources.close();

        assertThat(closed).containsExactly("agent", "admin");
        assertThat(failures).singleElement().extracting(Exception::getMessage).isEqualTo("store would not close");
    }

    @Test
    void resourceAddedAfterClose_isClosedByTheNextClose() {
        List<String> closed = new ArrayList<>();
        OpenedResources resources = new OpenedResources();
        resources.close();
        AutoCloseable late = resources.add(() -> closed.add("late"));

        resources.close();

        assertThat(late).isNotNull();
        assertThat(closed).containsExactly("late");
    }
}
