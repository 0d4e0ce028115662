package dev.audioengine.models.whisper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Greedy decoding of one window as whisper.cpp's {@code whisper_process_logits} (and openai-whisper's logit filters)
 * shape each step's logits: the first token may not be EOT or a blank; no-timestamps, start-of-transcript, task,
 * language, previous-text, start-of-LM and no-speech tokens never come out; without timestamps no timestamp token does;
 * with them, timestamps pair up (after two in a row text must follow, after a lone one another timestamp or EOT), never
 * go back, the first one is at most 1 s, and when the timestamps' summed probability beats the likeliest text token
 * a timestamp is taken. The token taken is the likeliest left; its probability is that of the shaped distribution.
 */
final class WhisperDecoding {
    /** whisper.cpp's and openai-whisper's max_initial_timestamp: 1 s, in 20 ms steps. */
    static final int MAX_INITIAL_TIMESTAMP = 50;

    /** whisper.cpp's delta_min: a timestamp this close to the audio's end (10 ms frames) ends the window. */
    static final int END_MARGIN_FRAMES = 10;

    /** whisper.cpp's (and openai-whisper's) logprob_thold: a result whose mean log-probability is below is doubtful. */
    static final double LOGPROB_THRESHOLD = -1.0;

    /** whisper.cpp's (and openai-whisper's) no_speech_thold. */
    static final double NO_SPEECH_THRESHOLD = 0.6;

    /**
     * whisper.cpp's guard against text made up in silence: the no-speech token was likely after the prompt and the
     * result is doubtful; whisper.cpp then outputs nothing for the window (nor takes its text as the next prompt).
     */
    static boolean noSpeech(double noSpeechProbability, double averageLogprob) {
        return noSpeechProbability > NO_SPEECH_THRESHOLD && averageLogprob < LOGPROB_THRESHOLD;
    }

    /**
     * whisper.cpp's decision to decode the window again at the next temperature (at any but the last): the decoder
     * failed (a timestamp went back, no result, stuck at the limit, or a repetition loop by entropy), or its result is
     * doubtful while the window does not look silent. openai-whisper also falls back on a gzip compression ratio
     * above 2.4; whisper.cpp has no such test (its entropy guard stands in for it).
     */
    static boolean fallback(boolean failed, double averageLogprob, double noSpeechProbability) {
        return failed || (averageLogprob < LOGPROB_THRESHOLD && noSpeechProbability < NO_SPEECH_THRESHOLD);
    }

    /**
     * whisper.cpp's bookkeeping of one greedy decoder's sequence: its result's length (every token without
     * timestamps, EOT included; up to the last timestamp with them), where the window would seek to, and failure.
     */
    static final class Sequence {
        private final boolean timestamps;
        private final int audioEnd, limit;
        private final List<Double> logprobs = new ArrayList<>();
        private int resultLength, seekDelta = 3000;
        private boolean hasTs, failed;

        Sequence(boolean timestamps, int audioEnd, int limit) {
            this.timestamps = timestamps;
            this.audioEnd = audioEnd;
            this.limit = limit;
        }

        /** Token {@code id} taken at step {@code i} with log-probability {@code logprob}. */
        void take(int i, int id, double logprob, WhisperTokenizer t) {
            logprobs.add(logprob);
            if (id > t.timestampBegin()) {
                seekDelta = 2 * (id - t.timestampBegin());
                resultLength = i + 1;
                hasTs = true;
            }
            boolean audioDone = seekDelta + END_MARGIN_FRAMES >= audioEnd;
            if (id == t.eot() || (hasTs && audioDone)) {
                if (resultLength == 0 && timestamps) {
                    if (audioDone) resultLength = i + 1;
                    else failed = true;
                }
                if (!timestamps) resultLength = i + 1;
            } else if (i == limit - 1 && (resultLength == 0 || seekDelta < 1500)) failed = true;
        }

        /** The result's mean log-probability; −∞ when the decoder failed or took nothing. */
        double averageLogProbability() {
            if (failed || resultLength == 0) return Double.NEGATIVE_INFINITY;
            double sum = 0;
            for (int i = 0; i < resultLength; i++) sum += logprobs.get(i);
            return sum / resultLength;
        }

        boolean failed() {
            return failed;
        }
    }

    /** The audio's length in 10 ms mel frames as whisper.cpp counts it (n_len_org: frames that start in the audio). */
    static int frames(int samples) {
        return 1 + Math.floorDiv(samples + 200 - 400, 160);
    }

    /** One token taken, with its probability after the rules. */
    record Token(int id, float probability) {}

    private WhisperDecoding() {}

    /** The prompt: SOT, then (multilingual) language and task, then no-timestamps when timestamps are off. */
    static int[] prompt(WhisperTokenizer t, String language, boolean translate, boolean timestamps) {
        List<Integer> p = new ArrayList<>(List.of(t.sot()));
        if (t.multilingual()) {
            p.add(t.languageToken(language));
            p.add(translate ? t.translate() : t.transcribe());
        }
        if (!timestamps) p.add(t.noTimestamps());
        return p.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The prompt after text the window continues ({@code previous}: whisper.cpp's initial prompt or earlier text): the
     * previous-text token and the last of those tokens that fit in half the decoder's context, then {@link #prompt}.
     */
    static int[] prompt(
            WhisperTokenizer t, String language, boolean translate, boolean timestamps, int[] previous, int textCtx) {
        int[] init = prompt(t, language, translate, timestamps);
        if (previous.length == 0) return init;
        int take = Math.min(textCtx / 2 - 1, previous.length); // whisper.cpp's max_prompt_ctx, less the marker
        int[] out = new int[1 + take + init.length];
        out[0] = t.previous();
        System.arraycopy(previous, previous.length - take, out, 1, take);
        System.arraycopy(init, 0, out, 1 + take, init.length);
        return out;
    }

    /**
     * Applies the rules to {@code logits} in place, given the tokens taken so far in this window. Returns the
     * log-probabilities whisper.cpp ranks beams by: the log-softmax of the shaped logits, except that when timestamps
     * win, text tokens are set to −∞ after the softmax (whisper.cpp does not renormalize over the timestamps).
     */
    static double[] shape(float[] logits, List<Token> taken, WhisperTokenizer t, boolean timestamps) {
        rules(logits, taken, t, timestamps);
        double[] logprobs = logSoftmax(logits);
        if (!timestamps) return logprobs;
        int v = logits.length, beg = t.timestampBegin();
        float ninf = Float.NEGATIVE_INFINITY;
        double maxTs = ninf, sum = 0;
        for (int i = beg; i < v; i++) maxTs = Math.max(maxTs, logprobs[i]);
        for (int i = beg; i < v; i++) if (logprobs[i] > ninf) sum += Math.exp(logprobs[i] - maxTs);
        double timestampLogprob = sum > 0 ? Math.log(sum) + maxTs : ninf;
        double maxText = ninf;
        for (int i = 0; i < beg; i++) maxText = Math.max(maxText, logprobs[i]);
        if (timestampLogprob > maxText) {
            Arrays.fill(logits, 0, beg, ninf);
            Arrays.fill(logprobs, 0, beg, Double.NEGATIVE_INFINITY);
        }
        return logprobs;
    }

    /** The rules of {@link #shape} that forbid tokens: each sets its tokens' logits to −∞, in place. */
    private static void rules(float[] logits, List<Token> taken, WhisperTokenizer t, boolean timestamps) {
        int v = logits.length, beg = t.timestampBegin();
        float ninf = Float.NEGATIVE_INFINITY;
        boolean initial = taken.isEmpty();
        if (initial) {
            logits[t.eot()] = ninf;
            if (t.space() >= 0) logits[t.space()] = ninf;
        }
        logits[t.noTimestamps()] = ninf;
        if (!timestamps) Arrays.fill(logits, beg, v, ninf);
        for (int id : new int[] {t.sot(), t.noSpeech(), t.startOfLm(), t.translate(), t.transcribe(), t.previous()})
            logits[id] = ninf;
        for (int i = 0; i < WhisperTokenizer.LANGUAGES.size() && t.sot() + 1 + i < v; i++)
            logits[t.sot() + 1 + i] = ninf;
        if (!timestamps) return;

        int n = taken.size();
        boolean lastWasTimestamp = n > 0 && taken.get(n - 1).id() >= beg;
        boolean penultimateWasTimestamp = n < 2 || taken.get(n - 2).id() >= beg;
        if (lastWasTimestamp) {
            if (penultimateWasTimestamp) Arrays.fill(logits, beg, v, ninf);
            else Arrays.fill(logits, 0, t.eot(), ninf);
        }
        if (initial) Arrays.fill(logits, Math.min(v, beg + MAX_INITIAL_TIMESTAMP + 1), v, ninf);
        int last = -1; // the latest timestamp after 0.00 (whisper.cpp moves its window on those only)
        for (Token k : taken) if (k.id() > beg) last = k.id() - beg;
        if (last > 0) Arrays.fill(logits, beg, beg + last, ninf);
    }

    /**
     * What greedy decoding at temperature 0 takes from a step (whisper.cpp's {@code whisper_sample_token} with
     * {@code best}): the token of the largest probability after {@link #shape} (the first of equal floats), that
     * probability and its log-probability as floats, and the likeliest timestamp token (whisper.cpp's {@code tid}; 0
     * when none is possible).
     */
    record Greedy(int id, float probability, float logprob, int likeliestTimestamp) {}

    /**
     * {@link #shape} followed by whisper.cpp's greedy pick, without the full distribution: the same bits as taking the
     * argmax of {@code (float) exp(shape(...)[i])} (0 where forbidden), but one pass of {@code exp} over the
     * vocabulary where that takes two, plus three arrays of its size a step. A 220-token window on a GPU spent about a
     * fifth of its time on this host work (docs/WHISPER.md). Applies the rules to {@code logits} in place.
     */
    static Greedy greedy(float[] logits, List<Token> taken, WhisperTokenizer t, boolean timestamps) {
        rules(logits, taken, t, timestamps);
        int v = logits.length, beg = t.timestampBegin();
        double ninf = Double.NEGATIVE_INFINITY;
        // logSoftmax's sums exactly: its max over widened floats, its order of additions (a running sum through the
        // chunks). The passes go by chunks, each a call: a one-shot job runs without on-stack replacement, so a loop
        // over the whole vocabulary would run in the interpreter in every one of a short window's few calls, while a
        // chunk's method is compiled after a few tokens
        double maxText = ninf, maxTs = ninf;
        for (int c = 0; c < beg; c += CHUNK) maxText = max(logits, c, Math.min(beg, c + CHUNK), maxText);
        for (int c = beg; c < v; c += CHUNK) maxTs = max(logits, c, Math.min(v, c + CHUNK), maxTs);
        double max = Math.max(maxText, maxTs), sum = 0;
        for (int c = 0; c < v; c += CHUNK) sum = expSum(logits, c, Math.min(v, c + CHUNK), max, sum);
        double lse = Math.log(sum) + max;
        boolean timestampsWin = false;
        if (timestamps && maxTs > ninf) {
            // shape's test on its log-probabilities, each formed as it forms them (l − lse, then the differences)
            double maxTsLogprob = maxTs - lse, tsSum = 0;
            for (int c = beg; c < v; c += CHUNK)
                tsSum = timestampSum(logits, c, Math.min(v, c + CHUNK), lse, maxTsLogprob, tsSum);
            double timestampLogprob = tsSum > 0 ? Math.log(tsSum) + maxTsLogprob : ninf;
            timestampsWin = timestampLogprob > maxText - lse;
        }
        int from = timestampsWin ? beg : 0;
        int id = firstOfLargestProbability(logits, from, v, timestampsWin ? maxTs : max, lse);
        int tid = firstOfLargestProbability(logits, beg, v, maxTs, lse);
        if (timestampsWin) Arrays.fill(logits, 0, beg, Float.NEGATIVE_INFINITY);
        if (id < 0)
            return new Greedy(
                    0,
                    0f,
                    logits[0] == Float.NEGATIVE_INFINITY ? Float.NEGATIVE_INFINITY : (float) (logits[0] - lse),
                    Math.max(tid, 0));
        return new Greedy(id, (float) Math.exp(logits[id] - lse), (float) (logits[id] - lse), Math.max(tid, 0));
    }

    /**
     * The first index in {@code [from, to)} whose probability {@code (float) exp(l − lse)} is the largest there (−1
     * when every one is 0). {@code exp} and the narrowing are monotonic, so the largest is that of {@code top} (the
     * largest logit there), and only logits within float rounding of it can equal it: those alone are exponentiated.
     */
    private static int firstOfLargestProbability(float[] logits, int from, int to, double top, double lse) {
        if (top == Double.NEGATIVE_INFINITY) return -1;
        float best = (float) Math.exp(top - lse);
        if (best == 0f) return -1;
        // a normal float equal to best needs l within about 2.4e-7 of top; a subnormal one (a timestamp far below the
        // text) has coarser steps, and then every logit is tried
        double near = best >= Float.MIN_NORMAL ? top - 1e-3 : Double.NEGATIVE_INFINITY;
        for (int c = from; c < to; c += CHUNK) {
            int at = first(logits, c, Math.min(to, c + CHUNK), near, lse, best);
            if (at >= 0) return at;
        }
        throw new AssertionError("no logit reaches the largest probability");
    }

    /**
     * A cheap guess at {@link #greedy}'s token, so that the next decoder step can run while greedy's sums are formed
     * (docs/WHISPER.md, "The step ahead"): the largest logit the rules leave (the first of equals), one pass of
     * comparisons where greedy's takes an {@code exp} per token. Greedy takes another only when the timestamps'
     * summed probability beats that token, or when a logit just below it rounds to the same probability and comes
     * first. Applies the rules to {@code logits} in place (greedy applies them again: they only forbid).
     *
     * @return the token, or -1 when the rules forbid every one
     */
    static int likeliest(float[] logits, List<Token> taken, WhisperTokenizer t, boolean timestamps) {
        rules(logits, taken, t, timestamps);
        int best = -1;
        float top = Float.NEGATIVE_INFINITY;
        for (int c = 0; c < logits.length; c += CHUNK) {
            int at = argmax(logits, c, Math.min(logits.length, c + CHUNK), top);
            if (at >= 0) {
                best = at;
                top = logits[at];
            }
        }
        return best;
    }

    /** The first index of {@code [from, to)} whose logit is above {@code above}, and the largest there; else -1. */
    private static int argmax(float[] logits, int from, int to, float above) {
        int best = -1;
        for (int i = from; i < to; i++)
            if (logits[i] > above) {
                above = logits[i];
                best = i;
            }
        return best;
    }

    /** Elements of a chunk of {@link #greedy}'s passes: a call each, so the JIT takes them over early. */
    private static final int CHUNK = 2048;

    private static double max(float[] logits, int from, int to, double max) {
        for (int i = from; i < to; i++) max = Math.max(max, logits[i]);
        return max;
    }

    private static double expSum(float[] logits, int from, int to, double max, double sum) {
        for (int i = from; i < to; i++) if (logits[i] > Float.NEGATIVE_INFINITY) sum += Math.exp(logits[i] - max);
        return sum;
    }

    private static double timestampSum(float[] logits, int from, int to, double lse, double maxLogprob, double sum) {
        for (int i = from; i < to; i++)
            if (logits[i] > Float.NEGATIVE_INFINITY) sum += Math.exp((logits[i] - lse) - maxLogprob);
        return sum;
    }

    private static int first(float[] logits, int from, int to, double near, double lse, float best) {
        for (int i = from; i < to; i++) if (logits[i] >= near && (float) Math.exp(logits[i] - lse) == best) return i;
        return -1;
    }

    /** The likeliest token of shaped logits and its softmax probability. */
    static Token pick(float[] logits) {
        int best = 0;
        for (int i = 1; i < logits.length; i++) if (logits[i] > logits[best]) best = i;
        double sum = 0;
        for (float l : logits) if (l > Float.NEGATIVE_INFINITY) sum += Math.exp(l - logits[best]);
        return new Token(best, (float) (1 / sum));
    }

    static double[] logSoftmax(float[] logits) {
        double max = Double.NEGATIVE_INFINITY, sum = 0;
        for (float l : logits) max = Math.max(max, l);
        for (float l : logits) if (l > Float.NEGATIVE_INFINITY) sum += Math.exp(l - max);
        double lse = Math.log(sum) + max;
        double[] out = new double[logits.length];
        for (int i = 0; i < logits.length; i++) out[i] = logits[i] - lse;
        return out;
    }

    /**
     * Segments of a window from its tokens: text between timestamp tokens, timed by them (seconds from the window's
     * start); without timestamps, or for text after the last one, the text runs to {@code windowSeconds}. As in
     * whisper.cpp (whisper_full, and {@link WhisperLongForm}'s windows), 0.00 delimits nothing: a window may open with
     * text (its decoding does not force a timestamp first), and then "text 0.00 0.00 more" is one segment, where a
     * split at 0.00 would make one that ends where it starts.
     */
    static List<WhisperModel.Segment> segments(List<Integer> tokens, WhisperTokenizer t, double windowSeconds) {
        List<WhisperModel.Segment> out = new ArrayList<>();
        int beg = t.timestampBegin();
        double start = 0;
        boolean open = false;
        List<Integer> text = new ArrayList<>();
        for (int id : tokens) {
            if (id > beg) {
                double at = (id - beg) * WhisperTokenizer.TIMESTAMP_SECONDS;
                if (!text.isEmpty()) {
                    out.add(new WhisperModel.Segment(start, at, t.decode(text), List.copyOf(text)));
                    text.clear();
                    open = false;
                } else {
                    start = at;
                    open = true;
                }
                if (!open) start = at;
            } else if (id < t.eot()) {
                text.add(id);
            }
        }
        if (!text.isEmpty())
            out.add(new WhisperModel.Segment(start, Math.max(start, windowSeconds), t.decode(text), List.copyOf(text)));
        return out;
    }
}
