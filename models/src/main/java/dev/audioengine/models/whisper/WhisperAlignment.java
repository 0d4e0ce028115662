package dev.audioengine.models.whisper;

import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Word timestamps from cross-attention, as whisper.cpp's {@code -dtw} ({@code
 * whisper_exp_compute_token_level_timestamps_dtw}) and openai-whisper's {@code word_timestamps} (timing.py): the
 * decoder is run again over the window's text, framed as whisper.cpp frames it (SOT, the language when multilingual,
 * no-timestamps, the text tokens, EOT), and the cross-attention weights of the model's alignment heads (softmax
 * over the 1500 encoder positions, one row per token) are
 * <ol>
 *   <li>cut to the audio's positions (whisper.cpp's {@code n_frames / 2}: 20 ms each),</li>
 *   <li>normalized over the tokens per head and position (mean 0, population variance 1, eps 1e-9),</li>
 *   <li>median-filtered along the positions (width 7, reflected at the edges),</li>
 *   <li>averaged over the heads and negated, the SOT sequence and EOT rows dropped (no-timestamps stays: row 0),</li>
 *   <li>aligned by dynamic time warping (whisper.cpp's tie rule), and each text token timed where the path enters
 *       its row: whisper.cpp's {@code t_dtw}, in 10 ms units.</li>
 * </ol>
 * Unlike openai-whisper, whisper.cpp leaves the task token out of that sequence; the engine does as whisper.cpp, whose
 * {@code t_dtw} values are what the parity test compares. Words are then openai-whisper's: a word ends where its last
 * token's row is entered and starts where the previous word ended (the window's start for the first).
 */
public final class WhisperAlignment {
    /** whisper.cpp's and openai-whisper's median filter width. */
    static final int MEDIAN_WIDTH = 7;

    private WhisperAlignment() {}

    /**
     * Cross-attention heads whose weights follow the speech: (decoder layer, head) pairs, both from 0.
     *
     * @param name   the preset's name, or "custom", or "default (...)" for openai-whisper's fallback
     * @param layers each pair's decoder layer
     * @param heads  each pair's head in that layer
     */
    public record Heads(String name, int[] layers, int[] heads) {
        public Heads {
            if (layers.length != heads.length || layers.length == 0)
                throw new IllegalArgumentException("alignment heads need as many layers as heads, at least one");
        }

        /** How many heads. */
        public int count() {
            return layers.length;
        }

        /** The heads of decoder layer {@code layer}, in the order they are listed. */
        int[] inLayer(int layer) {
            return java.util.stream.IntStream.range(0, layers.length)
                    .filter(i -> layers[i] == layer)
                    .map(i -> heads[i])
                    .toArray();
        }

        /** Refuses heads the model lacks. */
        Heads checkedFor(WhisperConfig c) {
            for (int i = 0; i < layers.length; i++)
                if (layers[i] < 0 || layers[i] >= c.textLayers() || heads[i] < 0 || heads[i] >= c.textHeads())
                    throw new IllegalArgumentException("alignment head " + layers[i] + ":" + heads[i] + " (" + name
                            + ") is outside this model's " + c.textLayers() + " decoder layers of " + c.textHeads()
                            + " heads");
            return this;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(name).append(" [");
            for (int i = 0; i < layers.length; i++)
                b.append(i > 0 ? "," : "").append(layers[i]).append(':').append(heads[i]);
            return b.append(']').toString();
        }
    }

    /**
     * A released model's shape and its alignment heads (whisper.cpp's {@code g_aheads_*}, the same pairs as
     * openai-whisper's {@code _ALIGNMENT_HEADS}).
     */
    private record Preset(String name, int textLayers, int textHeads, int vocabulary, int[][] pairs) {}

    /** vocabulary 51865 stands for "multilingual, before large-v3". */
    private static final List<Preset> PRESETS = List.of(
            new Preset(
                    "tiny.en", 4, 6, 51864, new int[][] {{1, 0}, {2, 0}, {2, 5}, {3, 0}, {3, 1}, {3, 2}, {3, 3}, {3, 4}
                    }),
            new Preset("tiny", 4, 6, 51865, new int[][] {{2, 2}, {3, 0}, {3, 2}, {3, 3}, {3, 4}, {3, 5}}),
            new Preset("base.en", 6, 8, 51864, new int[][] {{3, 3}, {4, 7}, {5, 1}, {5, 5}, {5, 7}}),
            new Preset(
                    "base", 6, 8, 51865, new int[][] {{3, 1}, {4, 2}, {4, 3}, {4, 7}, {5, 1}, {5, 2}, {5, 4}, {5, 6}}),
            new Preset("small.en", 12, 12, 51864, new int[][] {
                {6, 6}, {7, 0}, {7, 3}, {7, 8}, {8, 2}, {8, 5}, {8, 7}, {9, 0}, {9, 4}, {9, 8}, {9, 10}, {10, 0},
                {10, 1}, {10, 2}, {10, 3}, {10, 6}, {10, 11}, {11, 2}, {11, 4}
            }),
            new Preset("small", 12, 12, 51865, new int[][] {
                {5, 3}, {5, 9}, {8, 0}, {8, 4}, {8, 7}, {8, 8}, {9, 0}, {9, 7}, {9, 9}, {10, 5}
            }),
            new Preset("medium.en", 24, 16, 51864, new int[][] {
                {11, 4}, {14, 1}, {14, 12}, {14, 14}, {15, 4}, {16, 0}, {16, 4}, {16, 9}, {17, 12}, {17, 14}, {18, 7},
                {18, 10}, {18, 15}, {20, 0}, {20, 3}, {20, 9}, {20, 14}, {21, 12}
            }),
            new Preset("medium", 24, 16, 51865, new int[][] {{13, 15}, {15, 4}, {15, 15}, {16, 1}, {20, 0}, {23, 4}}),
            new Preset("large-v1", 32, 20, 51865, new int[][] {
                {9, 19}, {11, 2}, {11, 4}, {11, 17}, {22, 7}, {22, 11}, {22, 17}, {23, 2}, {23, 15}
            }),
            new Preset("large-v2", 32, 20, 51865, new int[][] {
                {10, 12}, {13, 17}, {16, 11}, {16, 12}, {16, 13}, {17, 15}, {17, 16}, {18, 4}, {18, 11}, {18, 19},
                {19, 11}, {21, 2}, {21, 3}, {22, 3}, {22, 9}, {22, 12}, {23, 5}, {23, 7}, {23, 13}, {25, 5}, {26, 1},
                {26, 12}, {27, 15}
            }),
            new Preset("large-v3", 32, 20, 51866, new int[][] {
                {7, 0}, {10, 17}, {12, 18}, {13, 12}, {16, 1}, {17, 14}, {19, 11}, {21, 4}, {24, 1}, {25, 6}
            }),
            new Preset(
                    "large-v3-turbo", 4, 20, 51866, new int[][] {{2, 4}, {2, 11}, {3, 3}, {3, 6}, {3, 11}, {3, 14}}));

    /** The preset names, as {@code --dtw-heads} takes them (whisper.cpp's dotted spellings are taken too). */
    public static List<String> presetNames() {
        return PRESETS.stream().map(Preset::name).toList();
    }

    private static Heads of(Preset p) {
        return new Heads(
                p.name(),
                Arrays.stream(p.pairs()).mapToInt(x -> x[0]).toArray(),
                Arrays.stream(p.pairs()).mapToInt(x -> x[1]).toArray());
    }

    /**
     * The heads a spec names: null, empty or "auto" for {@link #forShape}; a preset name ("tiny", "base.en",
     * "large-v3-turbo"; whisper.cpp's "large.v3" too); or pairs "layer:head,layer:head" (from 0).
     *
     * @throws IllegalArgumentException for an unknown name, a malformed pair, or heads the model lacks
     */
    public static Heads parse(String spec, WhisperConfig c) {
        if (spec == null || spec.isBlank() || spec.equals("auto")) return forShape(c);
        String s = spec.strip().toLowerCase(Locale.ROOT);
        String dashed = s.startsWith("large.") ? "large-" + s.substring(6).replace('.', '-') : s;
        for (Preset p : PRESETS) if (p.name().equals(dashed)) return of(p).checkedFor(c);
        if (!s.matches("\\d+:\\d+(,\\d+:\\d+)*"))
            throw new IllegalArgumentException("alignment heads \"" + spec + "\" are neither a preset (" + presetNames()
                    + ") nor pairs layer:head,layer:head counted from 0");
        String[] pairs = s.split(",");
        int[] layers = new int[pairs.length], heads = new int[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            String[] lh = pairs[i].split(":");
            layers[i] = Integer.parseInt(lh[0]);
            heads[i] = Integer.parseInt(lh[1]);
        }
        return new Heads("custom", layers, heads).checkedFor(c);
    }

    /**
     * The heads of the released model of this shape (decoder layers, heads, vocabulary: tiny ... large-v3-turbo),
     * so that a file of a known shape (random weights included) gets that model's preset. Where no preset fits, or
     * two do (large-v1 and large-v2 share a shape), openai-whisper's own fallback: every head of the upper half of
     * the decoder's layers; its name says so.
     */
    public static Heads forShape(WhisperConfig c) {
        int vocabulary = Math.min(c.vocabulary(), 51866);
        List<Preset> fits = PRESETS.stream()
                .filter(p -> p.textLayers() == c.textLayers() && p.textHeads() == c.textHeads())
                .filter(p -> p.vocabulary() == vocabulary)
                .toList();
        if (fits.size() == 1) return of(fits.get(0));
        int from = c.textLayers() / 2, n = (c.textLayers() - from) * c.textHeads();
        int[] layers = new int[n], heads = new int[n];
        for (int i = 0; i < n; i++) {
            layers[i] = from + i / c.textHeads();
            heads[i] = i % c.textHeads();
        }
        String why = fits.isEmpty()
                ? "no released shape"
                : fits.stream().map(Preset::name).toList() + " share it";
        return new Heads("default (upper half of the decoder: " + why + ")", layers, heads);
    }

    /** The token sequence whose cross-attention is aligned: SOT, [language], no-timestamps, text, EOT. */
    static int[] sequence(WhisperTokenizer t, String language, List<Integer> text) {
        List<Integer> s = new ArrayList<>(List.of(t.sot()));
        if (t.multilingual()) s.add(t.languageToken(language));
        s.add(t.noTimestamps());
        s.addAll(text);
        s.add(t.eot());
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The rows of the SOT sequence (SOT and, when multilingual, the language) that are dropped before DTW. */
    static int sotRows(WhisperTokenizer t) {
        return t.multilingual() ? 2 : 1;
    }

    /**
     * Each text token's time, whisper.cpp's {@code t_dtw} in 10 ms units from the window's start.
     *
     * @param weights  [sequence token][head][1500]: the heads' cross-attention weights per token of {@link #sequence}
     * @param sotRows  rows before the no-timestamps token
     * @param frames   the audio's length in 10 ms mel frames (whisper.cpp's {@code n_frames}, at most 3000)
     * @return one time per text token (sequence length − sotRows − 2 of them)
     */
    static int[] tokenTimes(float[][][] weights, int sotRows, int frames) {
        return tokenTimes(weights, sotRows, frames, MEDIAN_WIDTH);
    }

    /** As above with a median filter width (odd; 1 turns the filter off, for tests that show it matters). */
    static int[] tokenTimes(float[][][] weights, int sotRows, int frames, int medianWidth) {
        float[][] matrix = matrix(weights, sotRows, frames, medianWidth);
        int[][] path = dtw(matrix);
        int texts = matrix.length - 1;
        int[] times = new int[texts];
        int last = 0, k = 0;
        for (int[] step : path) {
            if (step[0] != last) {
                last = step[0];
                if (k < texts) times[k++] = step[1] * 2;
            }
        }
        if (k != texts) throw new IllegalStateException("the DTW path entered " + k + " of " + texts + " text rows");
        return times;
    }

    /**
     * The cost matrix DTW walks: [no-timestamps + text tokens][audio positions], the negated mean over heads of the
     * normalized, median-filtered weights.
     */
    static float[][] matrix(float[][][] weights, int sotRows, int frames, int medianWidth) {
        int tokens = weights.length, heads = weights[0].length;
        int audio = Math.min(frames, 2 * weights[0][0].length) / 2;
        if (audio < 1) throw new IllegalArgumentException("no audio to align: " + frames + " frames");
        // a window shorter than the filter (under 140 ms) is not filtered; whisper.cpp asserts there
        if (medianWidth >= audio) medianWidth = 1;
        float[][][] w = new float[heads][tokens][audio];
        for (int h = 0; h < heads; h++) {
            for (int j = 0; j < audio; j++) {
                double sum = 0;
                for (int i = 0; i < tokens; i++) sum += weights[i][h][j];
                double mean = sum / tokens, sq = 0;
                for (int i = 0; i < tokens; i++) {
                    double d = weights[i][h][j] - mean;
                    sq += d * d;
                }
                float scale = (float) (1 / Math.sqrt(sq / tokens + 1e-9));
                for (int i = 0; i < tokens; i++) w[h][i][j] = (float) (weights[i][h][j] - mean) * scale;
            }
            for (int i = 0; i < tokens; i++) w[h][i] = median(w[h][i], medianWidth);
        }
        float[][] m = new float[tokens - sotRows - 1][audio];
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < audio; j++) {
                double sum = 0;
                for (int h = 0; h < heads; h++) sum += w[h][i + sotRows][j];
                m[i][j] = (float) -(sum / heads);
            }
        }
        return m;
    }

    /** A median filter of odd {@code width} with reflected edges (whisper.cpp's; openai-whisper pads the same way). */
    static float[] median(float[] x, int width) {
        if (width <= 1) return x.clone();
        int n = x.length, half = width / 2;
        float[] out = new float[n], window = new float[width];
        for (int k = 0; k < n; k++) {
            for (int off = -half; off <= half; off++) {
                int i = k + off;
                if (i < 0) i = -i;
                else if (i >= n) i = 2 * (n - 1) - i;
                window[off + half] = x[i];
            }
            Arrays.sort(window);
            out[k] = window[half];
        }
        return out;
    }

    /**
     * Dynamic time warping over {@code x} [rows][columns] from (0, 0) to the last cell, moves diagonal, down a row
     * or along a column; ties as whisper.cpp's {@code dtw_and_backtrace} (and openai-whisper's): the diagonal only
     * when strictly cheapest, then the row move when strictly cheapest, else along. Returns the path as (row,
     * column) pairs in order.
     */
    static int[][] dtw(float[][] x) {
        int n = x.length, m = x[0].length;
        float[][] cost = new float[n + 1][m + 1];
        byte[][] trace = new byte[n + 1][m + 1];
        for (float[] row : cost) Arrays.fill(row, Float.POSITIVE_INFINITY);
        cost[0][0] = 0;
        for (int j = 1; j <= m; j++) {
            for (int i = 1; i <= n; i++) {
                float c0 = cost[i - 1][j - 1], c1 = cost[i - 1][j], c2 = cost[i][j - 1], c;
                byte t;
                if (c0 < c1 && c0 < c2) {
                    c = c0;
                    t = 0;
                } else if (c1 < c0 && c1 < c2) {
                    c = c1;
                    t = 1;
                } else {
                    c = c2;
                    t = 2;
                }
                cost[i][j] = x[i - 1][j - 1] + c;
                trace[i][j] = t;
            }
        }
        for (int j = 0; j <= m; j++) trace[0][j] = 2;
        for (int i = 0; i <= n; i++) trace[i][0] = 1;
        List<int[]> back = new ArrayList<>();
        int i = n, j = m;
        while (i > 0 || j > 0) {
            back.add(new int[] {i - 1, j - 1});
            switch (trace[i][j]) {
                case 0 -> {
                    i--;
                    j--;
                }
                case 1 -> i--;
                default -> j--;
            }
        }
        int[][] path = new int[back.size()][];
        for (int k = 0; k < path.length; k++) path[k] = back.get(path.length - 1 - k);
        return path;
    }

    /**
     * A word: its text (leading space kept, as openai-whisper's), its tokens' range in the window's text tokens, its
     * start and end in seconds from the window's start and the mean probability of its tokens.
     */
    public record Word(String text, int firstToken, int endToken, double start, double end, double probability) {}

    /** openai-whisper's punctuation that joins the following word (after a space) or the previous one. */
    static final String PREPEND = "\"'“¿([{-", APPEND = "\"'.。,，!！?？:：”)]}、";

    /** Languages written without spaces between words: each complete character is a word (openai-whisper's rule). */
    private static final java.util.Set<String> NO_SPACES = java.util.Set.of("zh", "ja", "th", "lo", "my", "yue");

    /**
     * The window's text tokens joined into words (openai-whisper's {@code split_to_word_tokens} and {@code
     * merge_punctuations}) within each segment: tokens are grouped until their bytes make whole characters; a group
     * that starts with a space, is punctuation, or comes first in its segment starts a word, else it continues the
     * previous word; an opening punctuation mark after a space joins the next word and a closing one joins the word
     * before. Times from {@code tokenTimes} (10 ms units): a word ends at its last token's time and starts where the
     * word before ended.
     *
     * <p>openai-whisper joins the whole window's tokens, so a word that a timestamp token cuts in two ("Distance" |
     * "uture") ends up on the first segment whole and the second segment's words no longer spell its text. Here a
     * segment's start always starts a word, so every segment's words spell exactly its text (its tokens decoded).
     *
     * @param text          the window's text tokens (below EOT)
     * @param probabilities each text token's probability
     * @param tokenTimes    each text token's time in 10 ms units ({@link #tokenTimes})
     * @param segmentStarts where each segment's text tokens begin, ascending (empty or {@code {0}}: one segment)
     */
    static List<Word> words(
            WhisperTokenizer t,
            String language,
            List<Integer> text,
            float[] probabilities,
            int[] tokenTimes,
            int[] segmentStarts) {
        List<Word> out = new ArrayList<>();
        int from = 0;
        for (int k = 0; k <= segmentStarts.length; k++) {
            int to = k < segmentStarts.length ? segmentStarts[k] : text.size();
            if (to < from || to > text.size())
                throw new IllegalArgumentException("segment starts " + java.util.Arrays.toString(segmentStarts)
                        + " are not ascending within the window's " + text.size() + " text tokens");
            if (to > from) segmentWords(t, language, text, from, to, probabilities, tokenTimes, out);
            from = to;
        }
        return out;
    }

    /** {@link #words} of the text tokens {@code [from, to)}, one segment's, added to {@code out}. */
    private static void segmentWords(
            WhisperTokenizer t,
            String language,
            List<Integer> window,
            int from,
            int to,
            float[] probabilities,
            int[] tokenTimes,
            List<Word> out) {
        List<Integer> text = window.subList(from, to);
        // split_tokens_on_unicode: a group closes when its text has no U+FFFD, or when that U+FFFD is one the whole
        // text has too (bytes that never make a character)
        String full = t.decode(text);
        List<int[]> groups = new ArrayList<>();
        List<String> groupText = new ArrayList<>();
        int start = 0, offset = 0;
        for (int i = 0; i < text.size(); i++) {
            String s = t.decode(text.subList(start, i + 1));
            int bad = s.indexOf('\uFFFD');
            if (bad < 0
                    || (offset + bad < full.length() && full.charAt(offset + bad) == '\uFFFD')
                    || i == text.size() - 1) {
                groups.add(new int[] {start, i + 1});
                groupText.add(s);
                offset += s.length();
                start = i + 1;
            }
        }
        // split_tokens_on_spaces (or, without spaces between words, each group a word)
        List<String> words = new ArrayList<>();
        List<int[]> ranges = new ArrayList<>();
        boolean spaced = !NO_SPACES.contains(language);
        for (int g = 0; g < groups.size(); g++) {
            String s = groupText.get(g);
            // Python's `subword.strip() in string.punctuation` is a substring test: "" and ".," count
            if (!spaced || s.startsWith(" ") || PUNCTUATION.contains(s.strip()) || words.isEmpty()) {
                words.add(s);
                ranges.add(groups.get(g).clone());
            } else {
                words.set(words.size() - 1, words.get(words.size() - 1) + s);
                ranges.get(ranges.size() - 1)[1] = groups.get(g)[1];
            }
        }
        int n = words.size();
        double[] starts = new double[n], ends = new double[n], p = new double[n];
        for (int w = 0; w < n; w++) {
            int first = ranges.get(w)[0], end = ranges.get(w)[1];
            starts[w] = from + first == 0 ? 0 : tokenTimes[from + first - 1] / 100.0;
            ends[w] = tokenTimes[from + end - 1] / 100.0;
            for (int k = first; k < end; k++) p[w] += probabilities[from + k];
            p[w] /= end - first;
        }
        // merge_punctuations: a mark joins a word, which keeps its own times and probability (as openai-whisper's)
        String[] word = words.toArray(String[]::new);
        int[][] r = ranges.toArray(int[][]::new);
        for (int i = n - 2, j = n - 1; i >= 0; i--) {
            if (word[i].startsWith(" ") && PREPEND.contains(word[i].strip())) {
                word[j] = word[i] + word[j];
                r[j][0] = r[i][0];
                word[i] = "";
                r[i][1] = r[i][0];
            } else j = i;
        }
        for (int i = 0, j = 1; j < n; j++) {
            if (!word[i].endsWith(" ") && APPEND.contains(word[j])) {
                word[i] = word[i] + word[j];
                if (r[j][1] > r[j][0]) {
                    if (r[i][1] == r[i][0]) r[i][0] = r[j][0];
                    r[i][1] = r[j][1];
                }
                word[j] = "";
                r[j][1] = r[j][0];
            } else i = j;
        }
        for (int w = 0; w < n; w++)
            if (!word[w].isEmpty())
                out.add(new Word(word[w], from + r[w][0], from + r[w][1], starts[w], ends[w], p[w]));
    }

    /** Python's string.punctuation. */
    private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
}
