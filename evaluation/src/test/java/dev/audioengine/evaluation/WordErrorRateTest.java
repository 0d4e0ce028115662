package dev.audioengine.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.audioengine.evaluation.WordErrorRate.Result;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WordErrorRateTest {

    @Test
    void countsHandAlignedExamples() {
        assertThat(WordErrorRate.score("the cat sat on the mat", "the cat sat on the mat"))
                .isEqualTo(new Result(0, 0, 0, 6));
        // the cat [sat→sit] on the mat
        assertThat(WordErrorRate.score("the cat sat on the mat", "the cat sit on the mat"))
                .isEqualTo(new Result(1, 0, 0, 6));
        // the [cat deleted] sat on the mat
        assertThat(WordErrorRate.score("the cat sat on the mat", "the sat on the mat"))
                .isEqualTo(new Result(0, 1, 0, 6));
        // the big [inserted] cat sat on the mat [inserted: today]
        assertThat(WordErrorRate.score("the cat sat on the mat", "the big cat sat on the mat today"))
                .isEqualTo(new Result(0, 0, 2, 6));
        // ten of clubs → [ten→then] [of deleted] clubs [inserted: please]
        assertThat(WordErrorRate.score("ten of clubs", "then clubs please")).isEqualTo(new Result(1, 1, 1, 3));
        assertThat(WordErrorRate.score("a b c", "")).isEqualTo(new Result(0, 3, 0, 3));
        assertThat(WordErrorRate.score("", "x y")).isEqualTo(new Result(0, 0, 2, 0));
        assertThat(WordErrorRate.score("  ", " ")).isEqualTo(Result.NONE);
        assertThat(WordErrorRate.score(" a \t b\n", "a  b")).isEqualTo(new Result(0, 0, 0, 2));
    }

    @Test
    void splitsTiesTowardsHits() {
        // two substitutions, or a deletion, a hit and an insertion: both two errors
        assertThat(WordErrorRate.score("a b", "b c")).isEqualTo(new Result(0, 1, 1, 2));
        // (three substitutions would be one error more)
        assertThat(WordErrorRate.score("a b c", "b c d")).isEqualTo(new Result(0, 1, 1, 3));
        // no hit to gain: a substitution beats a deletion and an insertion
        assertThat(WordErrorRate.score("a", "b")).isEqualTo(new Result(1, 0, 0, 1));
    }

    @Test
    void computesRates() {
        Result r = WordErrorRate.score("ten of clubs", "then clubs please");
        assertThat(r.errors()).isEqualTo(3);
        assertThat(r.hits()).isEqualTo(1);
        assertThat(r.rate()).isEqualTo(1.0);
        assertThat(WordErrorRate.score("a b c d", "a x c d").rate()).isCloseTo(0.25, within(1e-12));
        assertThat(Result.NONE.rate()).isZero();
        assertThat(WordErrorRate.score("", "x").rate()).isInfinite();
        assertThat(r).hasToString("WER 1.0000 (1 S, 1 D, 1 I over 3 reference words)");
    }

    @Test
    void sumsUtterancesIntoACorpusRate() {
        List<Result> parts = List.of(
                WordErrorRate.score("a b c d", "a b c d"),
                WordErrorRate.score("e f", "e g h"),
                WordErrorRate.score("i j k l", "i"));
        Result total = WordErrorRate.total(parts);
        assertThat(total).isEqualTo(new Result(1, 3, 1, 10));
        assertThat(total.rate()).isCloseTo(0.5, within(1e-12)); // not the mean of the rates (0, 1, 0.75)
        assertThat(WordErrorRate.total(List.of())).isEqualTo(Result.NONE);
        assertThat(parts.get(0).plus(parts.get(1)).plus(parts.get(2))).isEqualTo(total);
    }

    @Test
    void refusesImpossibleCounts() {
        assertThatThrownBy(() -> new Result(-1, 0, 0, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> new Result(2, 2, 0, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot come from 3");
    }

    @Test
    void agreesWithEveryAlignmentEnumeratedOnRandomShortSequences() {
        Random rnd = new Random(5);
        List<String> vocabulary = List.of("a", "b", "c");
        for (int n = 0; n < 3000; n++) {
            List<String> ref = randomWords(rnd, vocabulary, rnd.nextInt(7)),
                    hyp = randomWords(rnd, vocabulary, rnd.nextInt(7));
            int[] best = bestByEnumeration(ref, hyp, 0, 0, new int[3]);
            Result got = WordErrorRate.score(ref, hyp);
            assertThat(new int[] {got.substitutions(), got.deletions(), got.insertions()})
                    .as(ref + " vs " + hyp)
                    .containsExactly(best);
            assertThat(got.referenceWords()).isEqualTo(ref.size());
        }
    }

    /**
     * Walks every alignment (hit or substitution, deletion, insertion at each step) and keeps the fewest errors,
     * then the fewest substitutions (the most hits); {@code counts} is S, D, I so far.
     */
    private static int[] bestByEnumeration(List<String> ref, List<String> hyp, int i, int j, int[] counts) {
        if (i == ref.size() && j == hyp.size()) return counts.clone();
        int[] best = null;
        if (i < ref.size() && j < hyp.size()) {
            boolean same = ref.get(i).equals(hyp.get(j));
            best = better(best, bestByEnumeration(ref, hyp, i + 1, j + 1, add(counts, same ? -1 : 0)));
        }
        if (i < ref.size()) best = better(best, bestByEnumeration(ref, hyp, i + 1, j, add(counts, 1)));
        if (j < hyp.size()) best = better(best, bestByEnumeration(ref, hyp, i, j + 1, add(counts, 2)));
        return best;
    }

    private static int[] add(int[] counts, int which) {
        int[] c = counts.clone();
        if (which >= 0) c[which]++;
        return c;
    }

    private static int[] better(int[] a, int[] b) {
        if (a == null) return b;
        int ea = a[0] + a[1] + a[2], eb = b[0] + b[1] + b[2];
        if (ea != eb) return ea < eb ? a : b;
        return a[0] <= b[0] ? a : b;
    }

    @Test
    void scoresLongTexts() {
        Random rnd = new Random(9);
        List<String> vocabulary = new ArrayList<>();
        for (int i = 0; i < 50; i++) vocabulary.add("w" + i);
        // 6000 by 6000 words, a few known edits apart
        List<String> ref = randomWords(rnd, vocabulary, 6000);
        List<String> hyp = new ArrayList<>(ref);
        hyp.set(100, "changed");
        hyp.remove(2000);
        hyp.add(4000, "extra");
        Collections.swap(hyp, 5000, 5001); // two errors, unless the two words are the same
        Result r = WordErrorRate.score(ref, hyp);
        assertThat(r.referenceWords()).isEqualTo(6000);
        assertThat(r.errors()).isBetween(3, 5);
        assertThat(r.deletions() - r.insertions()).isEqualTo(ref.size() - hyp.size());
    }

    private static List<String> randomWords(Random rnd, List<String> vocabulary, int length) {
        String[] words = new String[length];
        for (int i = 0; i < length; i++) words[i] = vocabulary.get(rnd.nextInt(vocabulary.size()));
        return Arrays.asList(words);
    }
}
