package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The decoding rules on logits made to test each one, and the segments timestamp tokens delimit. The vocabulary is
 * GPT-2's bytes under Whisper's multilingual specials (51865: EOT 50257, timestamps from 50364).
 */
class WhisperDecodingTest {
    static final WhisperTokenizer T = WhisperTokenizer.fromGgml(Gpt2Vocabulary.bytes(), 51865);
    static final int BEG = T.timestampBegin();

    private static List<WhisperDecoding.Token> taken(int... ids) {
        List<WhisperDecoding.Token> out = new ArrayList<>();
        for (int id : ids) out.add(new WhisperDecoding.Token(id, 1));
        return out;
    }

    private static float[] flat() {
        float[] l = new float[T.size()];
        Arrays.fill(l, -5);
        return l;
    }

    @Test
    void specialsAreTheOnesWhisperCppUses() {
        assertThat(List.of(T.eot(), T.sot(), T.translate(), T.transcribe(), T.noTimestamps(), BEG))
                .containsExactly(50257, 50258, 50358, 50359, 50363, 50364);
        assertThat(T.languageToken("en")).isEqualTo(50259);
        assertThat(T.languageToken("su")).isEqualTo(50259 + 98);
        WhisperTokenizer v3 = new WhisperTokenizer(new byte[0][], 51866),
                en = new WhisperTokenizer(new byte[0][], 51864);
        assertThat(v3.languages()).isEqualTo(100);
        assertThat(v3.timestampBegin()).isEqualTo(50365);
        assertThat(en.languages()).isEqualTo(99);
        assertThat(List.of(en.eot(), en.sot(), en.noTimestamps(), en.timestampBegin()))
                .containsExactly(50256, 50257, 50362, 50363);
        assertThat(T.space()).isEqualTo(220);
        assertThat(WhisperDecoding.prompt(T, "de", true, false)).containsExactly(50258, 50261, 50358, 50363);
        assertThat(WhisperDecoding.prompt(en, "en", false, true)).containsExactly(50257);
    }

    @Test
    void firstTokenIsNoBlankNorEotAndAtMostOneSecondOfTimestamps() {
        float[] l = flat();
        l[T.eot()] = 9;
        l[T.space()] = 8;
        l[BEG + 51] = 7; // 1.02 s: too late for a first timestamp
        l[1000] = 1;
        WhisperDecoding.shape(l, List.of(), T, true);
        assertThat(WhisperDecoding.pick(l).id()).isEqualTo(1000);
        float[] later = flat();
        later[BEG + 30] = 2;
        later[1000] = 1;
        WhisperDecoding.shape(later, List.of(), T, true);
        assertThat(WhisperDecoding.pick(later).id()).isEqualTo(BEG + 30);
    }

    @Test
    void timestampsPairUpNeverGoBackAndWinOnTheirSummedProbability() {
        float[] l = flat();
        l[1000] = 3;
        l[BEG + 100] = 2;
        WhisperDecoding.shape(l, taken(BEG, 500, BEG + 90), T, true); // a lone timestamp: another one or EOT
        assertThat(WhisperDecoding.pick(l).id()).isEqualTo(BEG + 100);
        float[] pair = flat();
        pair[BEG + 120] = 3;
        pair[1000] = 1;
        WhisperDecoding.shape(pair, taken(BEG, 500, BEG + 90, BEG + 90), T, true); // after a pair: text
        assertThat(WhisperDecoding.pick(pair).id()).isEqualTo(1000);
        float[] back = flat();
        back[BEG + 10] = 9;
        back[BEG + 95] = 1;
        WhisperDecoding.shape(back, taken(BEG, 500, BEG + 90, BEG + 90, 700), T, true); // never before 1.8 s
        assertThat(WhisperDecoding.pick(back).id()).isEqualTo(BEG + 95);
        float[] sum = flat(); // no one timestamp beats the text token, their sum does
        sum[1000] = 0;
        for (int i = BEG + 100; i < BEG + 200; i++) sum[i] = -1;
        WhisperDecoding.shape(sum, taken(BEG, 500), T, true);
        assertThat(WhisperDecoding.pick(sum).id()).isBetween(BEG + 100, BEG + 199);
    }

    /**
     * {@link WhisperDecoding#greedy} against what the long-form decoder did before it (and whisper.cpp does): the whole
     * shaped distribution as floats, its argmax (the first of equals), that token's float probability and
     * log-probability, and the first likeliest timestamp. Bit for bit, on fresh logits of every kind the rules meet:
     * text winning, timestamps winning on their sum, exact ties and neighbours one float step apart at the top, and
     * timestamps so unlikely that their probabilities are subnormal floats (coarse steps: many tie).
     */
    @Test
    void greedyTakesWhatTheWholeDistributionsArgmaxTakes() {
        java.util.Random r = new java.util.Random(System.nanoTime());
        long seed = r.nextLong();
        r = new java.util.Random(seed);
        int tsWins = 0, textWins = 0, ties = 0, subnormal = 0;
        for (int c = 0; c < 400; c++) {
            float[] l = new float[T.size()];
            float scale = 0.5f + 8 * r.nextFloat();
            for (int i = 0; i < l.length; i++) l[i] = (float) (r.nextGaussian() * scale);
            int kind = c % 5;
            if (kind == 1) for (int i = BEG; i < l.length; i++) l[i] += 3 * scale; // timestamps likely
            if (kind == 2) { // timestamp probabilities about e^-100: subnormal floats 2 % apart, so many are equal
                double sum = 0;
                for (int i = 0; i < BEG; i++) sum += Math.exp(l[i]);
                float lse = (float) Math.log(sum);
                for (int i = BEG; i < l.length; i++) l[i] = lse - 100 + 0.1f * r.nextFloat();
            }
            if (kind == 3 || kind == 4) {
                // the top reached more than once, and one float step below it: near 0.5 a step of the logit is half a
                // step of the probability, so the two can round to the same probability
                float top = -Float.MAX_VALUE;
                for (float x : l) top = Math.max(top, x);
                for (int i = 0; i < l.length; i++) l[i] -= top - 0.25f;
                top = 0.5f;
                int from = kind == 3 || r.nextBoolean() ? 0 : BEG;
                for (int k = 0; k < 4; k++) {
                    int at = from + r.nextInt(l.length - from);
                    l[at] = k % 2 == 0 ? top : Math.nextDown(top);
                }
                ties++;
            }
            List<WhisperDecoding.Token> taken = new ArrayList<>();
            int n = r.nextInt(4);
            for (int k = 0; k < n; k++)
                taken.add(new WhisperDecoding.Token(r.nextBoolean() ? BEG + 1 + r.nextInt(40) : r.nextInt(T.eot()), 1));
            boolean timestamps = c % 7 != 6;

            float[] whole = l.clone();
            double[] lp = WhisperDecoding.shape(whole, taken, T, timestamps);
            float[] probs = new float[l.length];
            for (int i = 0; i < l.length; i++)
                probs[i] = whole[i] == Float.NEGATIVE_INFINITY ? 0 : (float) Math.exp(lp[i]);
            int id = 0;
            float p = 0;
            for (int i = 0; i < probs.length; i++)
                if (p < probs[i]) {
                    p = probs[i];
                    id = i;
                }
            int tid = 0;
            float pt = 0;
            for (int i = BEG; i < probs.length; i++)
                if (pt < probs[i]) {
                    pt = probs[i];
                    tid = i;
                }
            WhisperDecoding.Greedy g = WhisperDecoding.greedy(l, taken, T, timestamps);
            String at = "case " + c + " of seed " + seed;
            assertThat(g.id()).as(at).isEqualTo(id);
            assertThat(g.probability()).as(at).isEqualTo(p);
            assertThat(g.logprob()).as(at).isEqualTo((float) lp[id]);
            assertThat(g.likeliestTimestamp()).as(at).isEqualTo(tid);
            assertThat(l)
                    .as(at + ": the rules applied in place as shape applies them")
                    .containsExactly(whole);
            if (pt > 0 && pt < Float.MIN_NORMAL) subnormal++;
            if (id >= BEG) tsWins++;
            else textWins++;
        }
        assertThat(tsWins).as("timestamps taken in some cases").isGreaterThan(20);
        assertThat(textWins).as("text taken in some cases").isGreaterThan(20);
        assertThat(ties).isGreaterThan(100);
        assertThat(subnormal).as("subnormal likeliest timestamps").isGreaterThan(20);
    }

    @Test
    void withoutTimestampsNoneIsTakenAndSpecialsNever() {
        float[] l = flat();
        l[BEG + 3] = 9;
        l[T.translate()] = 8;
        l[T.languageToken("fr")] = 7;
        l[T.noSpeech()] = 6;
        l[2000] = 1;
        WhisperDecoding.shape(l, taken(100), T, false);
        assertThat(WhisperDecoding.pick(l).id()).isEqualTo(2000);
    }

    @Test
    void timestampTokensDelimitSegments() {
        int hello = 31373, world = 995; // "hello", " world" in GPT-2's vocabulary
        List<WhisperModel.Segment> s =
                WhisperDecoding.segments(List.of(BEG, hello, BEG + 50, BEG + 60, world, BEG + 100), T, 5.0);
        assertThat(s).hasSize(2);
        assertThat(s.get(0).start()).isEqualTo(0.0);
        assertThat(s.get(0).end()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(s.get(0).text()).isEqualTo("hello");
        assertThat(s.get(1).start()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(s.get(1).end()).isCloseTo(2.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(s.get(1).text()).isEqualTo(" world");
        // 0.00 after text delimits nothing (whisper.cpp): one segment to the next timestamp
        List<WhisperModel.Segment> zero = WhisperDecoding.segments(List.of(hello, BEG, BEG, world, BEG + 31), T, 5.0);
        assertThat(zero).hasSize(1);
        assertThat(zero.get(0).text()).isEqualTo("hello world");
        assertThat(zero.get(0).start()).isEqualTo(0.0);
        assertThat(zero.get(0).end()).isCloseTo(0.62, org.assertj.core.data.Offset.offset(1e-9));
        List<WhisperModel.Segment> untimed = WhisperDecoding.segments(List.of(hello, world), T, 4.5);
        assertThat(untimed).hasSize(1);
        assertThat(untimed.get(0).end()).isEqualTo(4.5);
        assertThat(untimed.get(0).text()).isEqualTo("hello world");
    }

    /** std::mt19937's check value (the C++ standard: the 10000th output of a default-seeded engine is 4123659995). */
    @Test
    void mersenneTwisterIsStdMt19937() {
        var r = new WhisperBeamSearch.Mt19937(5489);
        long last = 0;
        for (int i = 0; i < 10000; i++) last = r.next();
        assertThat(last).isEqualTo(4123659995L);
        // whisper.cpp seeds decoder j with j: std::mt19937(0)'s first outputs
        var zero = new WhisperBeamSearch.Mt19937(0);
        assertThat(List.of(zero.next(), zero.next())).containsExactly(2357136044L, 2546248239L);
    }

    /** libstdc++'s discrete_distribution: u in [0, 1) from two outputs, low word first; the first cumulative ≥ u. */
    @Test
    void drawsAreLibstdcxxDiscreteDistribution() {
        var r = new WhisperBeamSearch.Mt19937(0);
        double u = (2357136044L + 2546248239L * 4294967296.0) / 18446744073709551616.0;
        assertThat(r.canonical()).isEqualTo(u);
        double[] cp = WhisperBeamSearch.cumulative(new float[] {0, 1, 0, 3, 0});
        assertThat(cp).containsExactly(0, 0.25, 0.25, 1, 1);
        // u ≈ 0.593: past the first weight (0.25), inside the second (token 3); zero weights are never drawn
        assertThat(WhisperBeamSearch.draw(cp, new WhisperBeamSearch.Mt19937(0))).isEqualTo(3);
        var many = new WhisperBeamSearch.Mt19937(7);
        int[] counts = new int[5];
        for (int i = 0; i < 4000; i++) counts[WhisperBeamSearch.draw(cp, many)]++;
        assertThat(counts[0] + counts[2] + counts[4]).isZero();
        assertThat(counts[1]).isBetween(900, 1100);
    }

    /** The ranking: mean log-probability over the result; a result of over 32 tokens with low entropy is a loop. */
    @Test
    void beamsAreRankedByMeanLogProbabilityAndLoopsFail() {
        List<WhisperBeamSearch.Step> s = new ArrayList<>();
        for (int i = 0; i < 40; i++) s.add(new WhisperBeamSearch.Step(i % 3, 0.5f, -1f - i % 2));
        assertThat(WhisperBeamSearch.score(s, 4)).isEqualTo(-1.5);
        assertThat(WhisperBeamSearch.score(s, 0)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(WhisperBeamSearch.entropy(s, 40)).isCloseTo(Math.log(3), org.assertj.core.data.Offset.offset(0.01));
        assertThat(WhisperBeamSearch.entropy(s, 40)).isLessThan(WhisperBeamSearch.ENTROPY_THRESHOLD);
        List<WhisperBeamSearch.Step> varied = new ArrayList<>();
        for (int i = 0; i < 40; i++) varied.add(new WhisperBeamSearch.Step(i, 0.5f, -1f));
        assertThat(WhisperBeamSearch.entropy(varied, 40))
                .isCloseTo(Math.log(32), org.assertj.core.data.Offset.offset(1e-12));
    }

    /** Prompt text as whisper.cpp tokenizes it: GPT-2's words, longest byte runs; the bytes come back whole. */
    @Test
    void promptTextIsTokenizedAsWhisperCppDoes() {
        assertThat(T.encode("Hello world")).containsExactly(15496, 995);
        assertThat(T.encode("")).isEmpty();
        String s = "So,  the 42 cafés  in Zürich's old town — 東京? Yes!!\n";
        int[] ids = T.encode(s);
        assertThat(T.decode(Arrays.stream(ids).boxed().toList())).isEqualTo(s);
        assertThat(Arrays.stream(ids).max().orElseThrow()).isLessThan(T.eot());
        // the whitespace rule: of a run of spaces before a word, the last space goes with the word
        assertThat(T.encode("a   b")).containsExactly(64, 220, 220, 275);
    }

    /** The previous-text token and at most the last textCtx / 2 − 1 prompt tokens come before SOT. */
    @Test
    void promptTokensGoBeforeSotAfterThePreviousTextToken() {
        assertThat(WhisperDecoding.prompt(T, "en", false, false, new int[] {1, 2, 3}, 448))
                .containsExactly(
                        T.previous(), 1, 2, 3, T.sot(), T.languageToken("en"), T.transcribe(), T.noTimestamps());
        int[] many = new int[300];
        for (int i = 0; i < many.length; i++) many[i] = i;
        int[] p = WhisperDecoding.prompt(T, "en", false, true, many, 448);
        assertThat(p).hasSize(1 + 223 + 3);
        assertThat(p[1]).isEqualTo(300 - 223);
        assertThat(WhisperDecoding.prompt(T, "en", false, true, new int[0], 448))
                .containsExactly(T.sot(), T.languageToken("en"), T.transcribe());
    }

    /** whisper.cpp's guard and fallback decisions at its default thresholds (no-speech 0.6, mean log-probability −1). */
    @Test
    void noSpeechGuardAndFallbackDecisions() {
        assertThat(WhisperDecoding.noSpeech(0.7, -1.5)).isTrue();
        assertThat(WhisperDecoding.noSpeech(0.7, -0.5))
                .as("confident text is kept")
                .isFalse();
        assertThat(WhisperDecoding.noSpeech(0.5, -1.5))
                .as("speech likely: kept")
                .isFalse();
        assertThat(WhisperDecoding.noSpeech(0.6, -1.5)).as("strictly above").isFalse();
        assertThat(WhisperDecoding.fallback(false, -1.5, 0.5))
                .as("doubtful text in speech")
                .isTrue();
        assertThat(WhisperDecoding.fallback(false, -1.5, 0.7))
                .as("doubtful in silence: no-speech, not retried")
                .isFalse();
        assertThat(WhisperDecoding.fallback(false, -0.5, 0.1)).isFalse();
        assertThat(WhisperDecoding.fallback(true, -0.1, 0.9))
                .as("a failed decoder always")
                .isTrue();
    }

    /** The result's length as whisper.cpp counts it, for the mean log-probability. */
    @Test
    void meanLogProbabilityCountsTheResultAsWhisperCppDoes() {
        // no timestamps: every token, EOT included
        var plain = new WhisperDecoding.Sequence(false, 500, 220);
        plain.take(0, 100, -1, T);
        plain.take(1, 200, -2, T);
        plain.take(2, T.eot(), -0.0, T);
        assertThat(plain.averageLogProbability()).isEqualTo(-1.0);
        // timestamps: up to the last timestamp; text after it (and EOT) not counted
        var timed = new WhisperDecoding.Sequence(true, 500, 220);
        timed.take(0, BEG, -0.5, T);
        timed.take(1, 100, -1, T);
        timed.take(2, BEG + 40, -1.5, T);
        timed.take(3, 200, -9, T);
        timed.take(4, T.eot(), -9, T);
        assertThat(timed.averageLogProbability()).isEqualTo(-1.0);
        // stuck: no end by the limit fails
        var stuck = new WhisperDecoding.Sequence(false, 500, 2);
        stuck.take(0, 100, -1, T);
        stuck.take(1, 100, -1, T);
        assertThat(stuck.failed()).isTrue();
        assertThat(stuck.averageLogProbability()).isEqualTo(Double.NEGATIVE_INFINITY);
    }
}
