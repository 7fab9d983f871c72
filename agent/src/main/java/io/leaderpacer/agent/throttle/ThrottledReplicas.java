package io.leaderpacer.agent.throttle;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The value of a topic's {@code leader.replication.throttled.replicas} or {@code follower.replication.throttled.replicas}:
 * every replica of the topic ({@code *}), or a list of {@code partition:broker} entries, in Kafka's own format.
 *
 * <p>Why a type: the list is a string Kafka validates only when it is set, and {@code *} cannot be combined with
 * entries; parsing and writing it in one place keeps a caller from sending {@code "0:1, *"} or a broker id where the
 * partition goes.
 *
 * @param all      whether every replica of the topic is throttled ({@code *})
 * @param replicas the throttled replicas when not {@code all}, in order, without repeats; empty when {@code all}
 */
public record ThrottledReplicas(boolean all, List<Replica> replicas) {

    /** Every replica of the topic: {@code *}. */
    public static final ThrottledReplicas ALL = new ThrottledReplicas(true, List.of());

    /**
     * The longest config value Kafka carries, in characters of this ASCII format: its protocol writes a string with
     * at most {@link Short#MAX_VALUE} bytes. A longer one is not refused by a broker but by the Admin client, whose
     * network thread then dies with the request ("'value' field is too long to be serialized"), and every later call
     * of that client fails. A topic of about 4,000 partitions or more can need a longer list than this.
     */
    public static final int MAX_CONFIG_VALUE_CHARS = Short.MAX_VALUE;

    /** How many entries {@link #brief} names. */
    private static final int BRIEF = 8;

    /**
     * One replica: a partition of the topic and a broker holding it, written {@code partition:broker}. On the leader
     * side the broker is a follower the leader sends to; on the follower side the broker is the one fetching.
     */
    public record Replica(int partition, int broker) {
        public Replica {
            if (partition < 0 || broker < 0) {
                throw new IllegalArgumentException(
                        "partition and broker must be >= 0, were " + partition + ":" + broker);
            }
        }

        /** Kafka's form, {@code partition:broker}. */
        public String configValue() {
            return partition + ":" + broker;
        }
    }

    public ThrottledReplicas {
        replicas = List.copyOf(replicas.stream().distinct().toList());
        if (all && !replicas.isEmpty()) {
            throw new IllegalArgumentException("'*' throttles every replica; it takes no entries, got " + replicas);
        }
    }

    /** These replicas only. */
    public static ThrottledReplicas of(Collection<Replica> replicas) {
        return new ThrottledReplicas(false, new ArrayList<>(replicas));
    }

    /**
     * Reads Kafka's format: {@code *}, or {@code partition:broker} entries separated by commas (spaces around them
     * allowed, as Kafka allows them); an empty value is an empty list.
     *
     * @throws IllegalArgumentException naming the value when it is neither
     */
    public static ThrottledReplicas parse(String value) {
        String v = value.trim();
        if (v.equals("*")) {
            return ALL;
        }
        List<Replica> out = new ArrayList<>();
        if (v.isEmpty()) {
            return of(out);
        }
        for (String entry : v.split(",")) {
            String[] parts = entry.trim().split(":");
            if (parts.length != 2 || !parts[0].matches("\\d+") || !parts[1].matches("\\d+")) {
                throw new IllegalArgumentException("'" + value + "' is not a throttled replica list: write * or"
                        + " partition:broker entries separated by commas, e.g. 0:1,1:2");
            }
            out.add(new Replica(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
        }
        return of(out);
    }

    /**
     * {@code kept}, then as many of {@code candidates} as fit with it, in the candidates' order, within a value of
     * {@code maxChars} characters; {@code kept} is returned whole even when it alone is longer.
     */
    public static List<Replica> fitting(Collection<Replica> kept, Collection<Replica> candidates, int maxChars) {
        Set<Replica> out = new LinkedHashSet<>(kept);
        int length = length(out);
        for (Replica r : candidates) {
            if (out.contains(r)) {
                continue;
            }
            int next = length + (out.isEmpty() ? 0 : 1) + r.configValue().length();
            if (next > maxChars) {
                break;
            }
            out.add(r);
            length = next;
        }
        return new ArrayList<>(out);
    }

    /** The length of the value these entries make, commas included. */
    public static int length(Collection<Replica> replicas) {
        int n = Math.max(0, replicas.size() - 1);
        for (Replica r : replicas) {
            n += r.configValue().length();
        }
        return n;
    }

    public boolean isEmpty() {
        return !all && replicas.isEmpty();
    }

    /** Kafka's form: {@code *}, or the entries joined by commas. */
    public String configValue() {
        return all ? "*" : replicas.stream().map(Replica::configValue).collect(Collectors.joining(","));
    }

    /**
     * The entries for a log line: all of them when few, else how many and the first {@value #BRIEF} (a list can hold
     * thousands, and a log line of 30,000 characters helps no one at 3 a.m.).
     */
    public static String brief(Collection<Replica> replicas) {
        if (replicas.size() <= BRIEF) {
            return of(replicas).configValue();
        }
        return replicas.size() + " entries "
                + of(replicas.stream().limit(BRIEF).toList()).configValue() + ",...";
    }

    @Override
    public String toString() {
        return configValue();
    }
}
