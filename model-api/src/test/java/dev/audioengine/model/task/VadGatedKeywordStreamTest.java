package dev.audioengine.model.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gate on scripted streams: a keyword stream that scores frame f with {@code score[f]} and a detector that gives
 * chunk j the probability {@code speech[j]} (frames of 4 samples, chunks of 2: frame f holds chunks 2f and 2f + 1).
 */
class VadGatedKeywordStreamTest {
    private static final int FRAME = 4, CHUNK = 2, RATE = 50; // 80 ms frames, as openWakeWord's

    /** Scores frame f as script[f] (0 past the end). */
    private static final class ScriptedKeywords implements KeywordStream {
        final float[] script;
        long samples, frames;

        ScriptedKeywords(float... script) {
            this.script = script;
        }

        public int sampleRate() {
            return RATE;
        }

        public int frameSize() {
            return FRAME;
        }

        public List<String> keywords() {
            return List.of("word");
        }

        public Result accept(float[] x, int offset, int length) {
            long first = frames;
            samples += length;
            List<float[]> rows = new ArrayList<>();
            while ((frames + 1) * FRAME <= samples) rows.add(new float[] {at(frames++)});
            return new Result(first, rows.toArray(float[][]::new), List.of());
        }

        float at(long f) {
            return f < script.length ? script[(int) f] : 0f;
        }

        public Result finish() {
            return new Result(frames, new float[0][], List.of());
        }

        public void reset() {
            samples = frames = 0;
        }

        public void close() {}
    }

    /** Gives chunk j the probability script[j] (0 past the end). */
    private static final class ScriptedVad implements VadStream {
        final float[] script;
        long samples, chunks;
        boolean closed;

        ScriptedVad(float... script) {
            this.script = script;
        }

        public int sampleRate() {
            return RATE;
        }

        public int chunkSize() {
            return CHUNK;
        }

        public Result accept(float[] x) {
            samples += x.length;
            List<Float> out = new ArrayList<>();
            while ((chunks + 1) * CHUNK <= samples) {
                out.add(chunks < script.length ? script[(int) chunks] : 0f);
                chunks++;
            }
            float[] p = new float[out.size()];
            for (int i = 0; i < p.length; i++) p[i] = out.get(i);
            return new Result(p, List.of());
        }

        public Result finish() {
            return new Result(new float[0], List.of());
        }

        public void reset() {
            samples = chunks = 0;
        }

        public void close() {
            closed = true;
        }
    }

    /** Speech (probability 0.9) in the chunks of the given frames, silence elsewhere, over n frames. */
    private static float[] speechIn(int n, int... frames) {
        float[] p = new float[2 * n];
        for (int f : frames) p[2 * f + 1] = 0.9f; // one chunk of the frame is enough: the frame takes the highest
        return p;
    }

    private static float[] keywordAt(int n, int... frames) {
        float[] s = new float[n];
        for (int f : frames) s[f] = 0.8f;
        return s;
    }

    private static VadGatedKeywordStream gated(float[] scores, float[] speech) {
        return new VadGatedKeywordStream(
                new ScriptedKeywords(scores), new ScriptedVad(speech), KeywordOptions.DEFAULTS, 0.5);
    }

    private static KeywordStream.Result run(VadGatedKeywordStream s, int frames, int piece) {
        List<float[]> rows = new ArrayList<>();
        List<KeywordDetection> d = new ArrayList<>();
        float[] silence = new float[frames * FRAME];
        for (int at = 0; at < silence.length; at += piece) {
            KeywordStream.Result r = s.accept(silence, at, Math.min(piece, silence.length - at));
            rows.addAll(Arrays.asList(r.scores()));
            d.addAll(r.detections());
        }
        return new KeywordStream.Result(0, rows.toArray(float[][]::new), d);
    }

    private static float[] column(KeywordStream.Result r) {
        float[] c = new float[r.scores().length];
        for (int i = 0; i < c.length; i++) c[i] = r.scores()[i][0];
        return c;
    }

    @Test
    void aKeywordAfterSpeechIsDetectedAsWithoutTheGate() {
        // speech in frames 4..8, the keyword scores at 10 (speech 4 to 6 frames back: 4, 5, 6)
        try (VadGatedKeywordStream s = gated(keywordAt(40, 10), speechIn(40, 4, 5, 6, 7, 8))) {
            KeywordStream.Result r = run(s, 40, 40 * FRAME);
            assertThat(column(r)[10]).isEqualTo(0.8f);
            assertThat(r.detections()).singleElement().satisfies(d -> {
                assertThat(d.keyword()).isEqualTo("word");
                assertThat(d.frame()).isEqualTo(10);
                assertThat(d.score()).isEqualTo(0.8f);
            });
        }
    }

    @Test
    void noSpeechSuppressesTheDetectionAndZeroesTheScores() {
        try (VadGatedKeywordStream s = gated(keywordAt(40, 10, 11, 12), speechIn(40))) {
            KeywordStream.Result r = run(s, 40, 40 * FRAME);
            assertThat(column(r)).containsOnly(0f);
            assertThat(r.detections()).isEmpty();
        }
    }

    @Test
    void onlyFramesFourToSixBackOpenTheGate() {
        int t = 20;
        for (int back = 1; back <= 9; back++) {
            try (VadGatedKeywordStream s = gated(keywordAt(40, t), speechIn(40, t - back))) {
                KeywordStream.Result r = run(s, 40, 7);
                boolean open = back >= 4 && back <= 6;
                assertThat(column(r)[t]).as("speech %d frames back", back).isEqualTo(open ? 0.8f : 0f);
                assertThat(r.detections()).as("speech %d frames back", back).hasSize(open ? 1 : 0);
            }
        }
    }

    @Test
    void aSuppressedFrameStartsNoRefractoryPeriod() {
        // the keyword scores high at 10 (no speech before it) and at 14 (speech at 9): one detection, at 14
        try (VadGatedKeywordStream s = gated(keywordAt(40, 10, 14), speechIn(40, 9))) {
            KeywordStream.Result r = run(s, 40, FRAME);
            assertThat(r.detections())
                    .singleElement()
                    .satisfies(d -> assertThat(d.frame()).isEqualTo(14));
        }
    }

    @Test
    void howTheAudioIsCutDoesNotMatter() {
        float[] scores = new float[100], speech = new float[200];
        java.util.Random rnd = new java.util.Random(7);
        for (int i = 0; i < scores.length; i++) scores[i] = rnd.nextFloat();
        for (int i = 0; i < speech.length; i++) speech[i] = rnd.nextFloat();
        float[] reference = null;
        for (int piece : new int[] {1, 3, FRAME, 37, 100 * FRAME}) { // the last is one call past the 16-frame pieces
            try (VadGatedKeywordStream s = gated(scores, speech)) {
                float[] got = column(run(s, 100, piece));
                if (reference == null) reference = got;
                assertThat(got).as("pieces of %d samples", piece).containsExactly(reference);
            }
        }
        // and the gate did act both ways on these random scripts
        int kept = 0, zeroed = 0;
        for (int f = 0; f < 100; f++) {
            if (reference[f] == scores[f] && scores[f] != 0) kept++;
            else if (reference[f] == 0) zeroed++;
        }
        assertThat(kept).isPositive();
        assertThat(zeroed).isGreaterThan(4);
    }

    @Test
    void refusesNonFiniteSamplesBeforeUsingAnyAndClosesBoth() {
        ScriptedVad vad = new ScriptedVad();
        ScriptedKeywords kw = new ScriptedKeywords();
        VadGatedKeywordStream s = new VadGatedKeywordStream(kw, vad, KeywordOptions.DEFAULTS, 0.5);
        float[] x = new float[100];
        x[99] = Float.NaN;
        assertThatThrownBy(() -> s.accept(x)).isInstanceOf(IllegalArgumentException.class);
        assertThat(kw.samples).isZero();
        assertThat(vad.samples).isZero();
        s.close();
        assertThat(vad.closed).isTrue();
        assertThatThrownBy(() -> new VadGatedKeywordStream(kw, vad, KeywordOptions.DEFAULTS, 1.0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
