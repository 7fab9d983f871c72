package io.leaderpacer.agent.pacing;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Where the {@link ThrottleLedger} keeps its records: the agent's state topic in production (any instance finds
 * them after a crash), memory where there is none (a load test's agent, which restores before it stops).
 */
public interface LedgerStore {

    /** Every record, by key. */
    Map<String, String> load() throws InterruptedException, ExecutionException, TimeoutException;

    /** Writes records durably; a {@code null} value deletes its key. Returns once they are stored. */
    void write(Map<String, String> entries) throws InterruptedException, ExecutionException, TimeoutException;

    /** A store that lives and dies with this process. */
    static LedgerStore inMemory() {
        return new InMemoryLedgerStore();
    }
}
