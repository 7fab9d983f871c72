package io.leaderpacer.agent.config;

import java.util.Optional;

/**
 * The known key closest to a mistyped one, for "did you mean ...?" in error messages.
 *
 * <p>Why: the list of known keys tells an operator what exists, but with nine long, similar keys the one they meant
 * is easier found by the tool. A key is suggested only when it is close: at most a few edits (a missing letter, a
 * swapped pair, a wrong separator), so that an unrelated word gets the list and no guess.
 */
public final class ClosestKey {

    /** Most edits for a suggestion, at any length. */
    private static final int MAX_EDITS = 3;

    private ClosestKey() {}

    /** The known key within a few edits of {@code key}, the closest one; empty when none is close. */
    public static Optional<String> to(String key, Iterable<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int d = distance(key, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        int allowed = Math.min(MAX_EDITS, Math.max(1, key.length() / 4));
        return bestDistance > 0 && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** " did you mean 'KEY'?" for a close key, else nothing; for the end of an error message's first sentence. */
    public static String suggestion(String key, Iterable<String> known) {
        return to(key, known).map(k -> "; did you mean '" + k + "'?").orElse("");
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }
}
