package io.leaderpacer.agent.coordination;

/**
 * This instance's place in its group, for {@code /status}.
 *
 * @param role           STANDBY or ACTIVE
 * @param instance       this instance's id
 * @param group          the group id (also the prefix of the transactional id)
 * @param sinceMs        when the current role began (wall clock)
 * @param takeovers      how many times this instance became active
 * @param depositions    how many times it was deposed (fenced or cut off) while active
 * @param activeInstance the active instance as last seen by this one, or null when unknown
 */
public record CoordinationStatus(
        InstanceRole role,
        String instance,
        String group,
        long sinceMs,
        int takeovers,
        int depositions,
        String activeInstance) {}
