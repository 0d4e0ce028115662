package dev.audioengine.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Word error rate: the fewest substitutions, deletions and insertions that turn the reference's words into the
 * hypothesis's (a word-level Levenshtein alignment with unit costs), over the number of reference words.
 * Words are compared exactly, so normalise both sides first ({@link EnglishTextNormalizer}).
 *
 * <p>The total is the edit distance and does not depend on the alignment, but its split does: "ten of clubs" →
 * "then clubs please" is three substitutions, or a substitution, a deletion, a hit on "clubs" and an insertion.
 * Of the alignments with the fewest errors this takes the one with the most hits (so the fewest substitutions),
 * which keeps every word the hypothesis got right aligned with its reference word; the rule depends on no
 * order of preference among moves, so it is easy to state and to check.
 */
public final class WordErrorRate {
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    private WordErrorRate() {}

    /**
     * The counts of one utterance, or a sum of them.
     *
     * @param referenceWords how many words the reference(s) had: the rate's denominator
     */
    public record Result(int substitutions, int deletions, int insertions, int referenceWords) {
        /** Nothing scored yet: the start of a sum. */
        public static final Result NONE = new Result(0, 0, 0, 0);

        public Result {
            if (substitutions < 0 || deletions < 0 || insertions < 0 || referenceWords < 0) {
                throw new IllegalArgumentException("negative count in " + substitutions + " S, " + deletions + " D, "
                        + insertions + " I, " + referenceWords + " reference words");
            }
            if (substitutions + deletions > referenceWords) {
                throw new IllegalArgumentException(substitutions + " substitutions and " + deletions
                        + " deletions cannot come from " + referenceWords + " reference words");
            }
        }

        public int errors() {
            return substitutions + deletions + insertions;
        }

        /** Reference words the hypothesis got right. */
        public int hits() {
            return referenceWords - substitutions - deletions;
        }

        /**
         * Errors over reference words. With no reference words it is 0 when there are no errors either, and
         * positive infinity otherwise (every inserted word is an error against nothing).
         */
        public double rate() {
            if (referenceWords == 0) return errors() == 0 ? 0.0 : Double.POSITIVE_INFINITY;
            return (double) errors() / referenceWords;
        }

        /** The counts of both together: a corpus's rate is its summed errors over its summed reference words. */
        public Result plus(Result other) {
            return new Result(
                    Math.addExact(substitutions, other.substitutions),
                    Math.addExact(deletions, other.deletions),
                    Math.addExact(insertions, other.insertions),
                    Math.addExact(referenceWords, other.referenceWords));
        }

        @Override
        public String toString() {
            return String.format(
                    java.util.Locale.ROOT,
                    "WER %.4f (%d S, %d D, %d I over %d reference words)",
                    rate(),
                    substitutions,
                    deletions,
                    insertions,
                    referenceWords);
        }
    }

    /** Scores two texts split on whitespace; both should already be normalised. */
    public static Result score(String reference, String hypothesis) {
        return score(words(reference), words(hypothesis));
    }

    /** Scores two word sequences. */
    public static Result score(List<String> reference, List<String> hypothesis) {
        int n = reference.size(), m = hypothesis.size();
        // Cell (i, j) aligns the first i reference words with the first j hypothesis words: errors[j] and
        // substitutions[j] of the row being filled, compared as (fewest errors, then fewest substitutions); as
        // that order is kept by adding the same step to both sides, the best of the three moves is the best
        // cell. Deletions and insertions follow, as D - I = i - j and S + D + I = errors. Two rows suffice,
        // so long texts need little memory.
        int[] prevErrors = new int[m + 1], prevSubs = new int[m + 1], errors = new int[m + 1], subs = new int[m + 1];
        for (int j = 0; j <= m; j++) prevErrors[j] = j; // j insertions
        for (int i = 1; i <= n; i++) {
            errors[0] = i; // i deletions
            subs[0] = 0;
            String ref = reference.get(i - 1);
            for (int j = 1; j <= m; j++) {
                boolean same = ref.equals(hypothesis.get(j - 1));
                // diagonal: a hit or a substitution
                int bestErrors = prevErrors[j - 1] + (same ? 0 : 1), bestSubs = prevSubs[j - 1] + (same ? 0 : 1);
                // up: delete reference word i; left: insert hypothesis word j
                int delErrors = prevErrors[j] + 1, delSubs = prevSubs[j];
                if (delErrors < bestErrors || (delErrors == bestErrors && delSubs < bestSubs)) {
                    bestErrors = delErrors;
                    bestSubs = delSubs;
                }
                int insErrors = errors[j - 1] + 1, insSubs = subs[j - 1];
                if (insErrors < bestErrors || (insErrors == bestErrors && insSubs < bestSubs)) {
                    bestErrors = insErrors;
                    bestSubs = insSubs;
                }
                errors[j] = bestErrors;
                subs[j] = bestSubs;
            }
            int[] t = prevErrors;
            prevErrors = errors;
            errors = t;
            t = prevSubs;
            prevSubs = subs;
            subs = t;
        }
        int e = prevErrors[m], s = prevSubs[m];
        int deletions = (e - s + (n - m)) / 2, insertions = (e - s - (n - m)) / 2;
        return new Result(s, deletions, insertions, n);
    }

    /** The sum of many utterances' counts. */
    public static Result total(Iterable<Result> results) {
        Result sum = Result.NONE;
        for (Result r : results) sum = sum.plus(r);
        return sum;
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : WHITESPACE.split(text.strip())) if (!w.isEmpty()) out.add(w);
        return out;
    }
}
