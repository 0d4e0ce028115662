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
        if (!timestamps) return logSoftmax(logits);

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

        double[] logprobs = logSoftmax(logits);
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
     * start); without timestamps, or for text after the last one, the text runs to {@code windowSeconds}.
     */
    static List<WhisperModel.Segment> segments(List<Integer> tokens, WhisperTokenizer t, double windowSeconds) {
        List<WhisperModel.Segment> out = new ArrayList<>();
        int beg = t.timestampBegin();
        double start = 0;
        boolean open = false;
        List<Integer> text = new ArrayList<>();
        for (int id : tokens) {
            if (id >= beg) {
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
