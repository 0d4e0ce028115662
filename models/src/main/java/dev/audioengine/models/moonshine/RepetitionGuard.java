package dev.audioengine.models.moonshine;

import java.util.List;

/**
 * Stops a greedy decoder caught in a loop, the failure of small seq2seq models on noise or music ("the the the ...",
 * a phrase over and over until the length limit). A loop is the same n-gram (1 to {@link #MAX_NGRAM} tokens) repeated
 * back to back at the end of the output, at least {@link #MIN_REPEATS} times and spanning at least {@link #MIN_SPAN}
 * tokens: long enough that real speech ("five five", "no no no") is never cut. The loop is then cut to its first
 * occurrence.
 */
final class RepetitionGuard {
    static final int MAX_NGRAM = 8, MIN_REPEATS = 4, MIN_SPAN = 12;

    private RepetitionGuard() {}

    /** The length to keep when the tail of {@code tokens} is a loop, else -1. */
    static int loopCut(List<Integer> tokens) {
        int size = tokens.size();
        for (int n = 1; n <= MAX_NGRAM && n * MIN_REPEATS <= size; n++) {
            int repeats = 1;
            while ((repeats + 1) * n <= size && sameAsTail(tokens, n, repeats)) repeats++;
            if (repeats >= MIN_REPEATS && repeats * n >= MIN_SPAN) return size - (repeats - 1) * n;
        }
        return -1;
    }

    /** Whether the n-gram {@code repeats} places before the tail equals the tail n-gram. */
    private static boolean sameAsTail(List<Integer> tokens, int n, int repeats) {
        int size = tokens.size(), earlier = size - (repeats + 1) * n, tail = size - n;
        for (int i = 0; i < n; i++) if (!tokens.get(earlier + i).equals(tokens.get(tail + i))) return false;
        return true;
    }
}
