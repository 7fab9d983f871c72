package io.leaderpacer.agent.reorder;

/**
 * A state-topic record the agent cannot read. Why a type of its own: such a record may hold the only copy of an
 * original order, so the step reports it and leaves its partition alone rather than treating it as absent.
 */
public final class MalformedOrderRecordException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The record key as found in the topic. */
    private final String recordKey;

    public MalformedOrderRecordException(String recordKey, String problem) {
        super("state record '" + recordKey + "': " + problem);
        this.recordKey = recordKey;
    }

    public String recordKey() {
        return recordKey;
    }
}
