package dev.audioengine.models.whisper;

import dev.audioengine.model.task.LongFormOptions;
import dev.audioengine.models.whisper.WhisperBeamSearch.Mt19937;
import dev.audioengine.models.whisper.WhisperBeamSearch.Step;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Whisper's own long-form decoding, rule for rule as whisper.cpp 1.8's {@code whisper_full_with_state} (the copy npm's
 * nodejs-whisper@0.3.1 ships) does it, on one recording:
 * <ol>
 *   <li><b>Seeking.</b> Windows of 30 s start at {@code seek} (10 ms frames), from 0 while more than 100 ms are left.
 *       A window's result ends at its last timestamp; the next window starts there, unless the result ends in a
 *       single timestamp after text (or has none): then the whole window is skipped (30 s, or what is left).
 *   <li><b>Temperature fallback.</b> A window is decoded at each temperature of {@link LongFormOptions#temperatures()}
 *       until the best decoding neither failed (a timestamp going back, no result, stuck at the token limit, a
 *       repetition loop by entropy) nor is doubtful (mean log-probability below the threshold while the no-speech
 *       probability is below its threshold), the last temperature taken as it is. At temperature 0 greedy (or beam
 *       search); above, {@code bestOf} decoders sample from the shaped distribution of logits divided by the
 *       temperature, each with its own {@code std::mt19937} seeded with its index once per recording (the
 *       generators beam search draws from too), and the best mean log-probability wins. With beam search chosen
 *       the passes above 0 are beam searches too, as whisper.cpp runs them: {@code bestOf} beams drawing the beam
 *       size's candidates a step from the divided logits.
 *   <li><b>No speech.</b> A window whose no-speech probability is above its threshold and whose mean log-probability
 *       is below its threshold gives no text, and its tokens do not become context.
 *   <li><b>Conditioning.</b> Below temperature 0.5 the window's prompt starts with the previous-text token and the
 *       last (n_text_ctx / 2 − 1) tokens of the context: the initial prompt, then each window's result; a window
 *       decoded at 0.5 or above starts the context afresh from its own result; within the last 5 s of the audio the
 *       context is dropped.
 * </ol>
 * Differences from whisper.cpp, kept on purpose (docs/WHISPER.md): the no-speech probability is that of the logits
 * right after SOT (openai-whisper's; whisper.cpp 1.8 reads a stale row of its logits buffer); each window's log-mel
 * is computed from its own 30 s of audio rather than sliced from the whole recording's; openai-whisper's
 * compression-ratio test can be asked for too.
 */
final class WhisperLongForm {
    /** whisper.cpp's WHISPER_HISTORY_CONDITIONING_TEMP_CUTOFF: no previous text at or above this temperature. */
    static final float CONDITIONING_CUTOFF = 0.5f;

    /** whisper.cpp's delta_min: less audio than this (10 ms frames) is not decoded. */
    private static final int DELTA_MIN = 10;

    /** Whisper's window in 10 ms frames. */
    private static final int WINDOW_FRAMES = 3000;

    /**
     * One window as decoded.
     *
     * @param seek        its start, in 10 ms frames from the recording's start
     * @param seekDelta   how far the next window starts after it, in 10 ms frames
     * @param temperature the temperature its kept decoding ran at
     * @param prompt      the tokens fed before the first decoded one (previous text, SOT, language, task)
     * @param tokens      the result's tokens (up to its last timestamp; with timestamps off, EOT included as whisper.cpp
     *                    keeps it)
     * @param probabilities each result token's probability after the rules
     * @param averageLogProbability the result's mean log-probability (−∞ when it failed)
     * @param noSpeechProbability   the no-speech token's probability after SOT
     * @param noSpeech    whether the window was taken for silence (no segments, no context)
     * @param segments    its text timed on the recording's time line (seconds)
     */
    record Window(
            int seek,
            int seekDelta,
            float temperature,
            int[] prompt,
            List<Integer> tokens,
            float[] probabilities,
            double averageLogProbability,
            double noSpeechProbability,
            boolean noSpeech,
            List<WhisperModel.Segment> segments) {}

    /** A recording's windows, in order, and the language they were decoded in. */
    record Result(String language, List<Window> windows) {}

    /** One decoder of a pass: its tokens, bookkeeping as whisper.cpp's {@code whisper_decoder}. */
    private static final class Decoder {
        final List<Step> tokens = new ArrayList<>();
        int resultLength, seekDelta = WINDOW_FRAMES;
        boolean hasTs, completed, failed;
        double average = Double.NEGATIVE_INFINITY, score = Double.NEGATIVE_INFINITY;
        float[] probs, logprobs; // at a temperature above 0: the distribution drawn from
        WhisperDecoding.Greedy greedy; // at temperature 0: the token taken

        boolean active() {
            return !completed && !failed;
        }
    }

    private final WhisperSteps session;
    private final WhisperTokenizer t;
    private final int textCtx;
    private final java.util.concurrent.Executor sums;
    /** Steps ahead whose token greedy took, and those it did not (fed again), over every pass: for tests and docs. */
    int aheadTaken, aheadRedone;

    /**
     * @param sums where greedy's sums run while the next step runs ahead at temperature 0 with one decoder
     *     ({@link WhisperStepAhead}), or null for the plain loop
     */
    WhisperLongForm(WhisperSteps session, WhisperTokenizer tokenizer, int textCtx, java.util.concurrent.Executor sums) {
        this.session = session;
        this.t = tokenizer;
        this.textCtx = textCtx;
        this.sums = sums;
    }

    /**
     * Decodes a whole recording (16 kHz) in Whisper's sequential windows.
     *
     * @param language   the language, already resolved ("en" for English-only models)
     * @param prompt     the initial prompt's tokens (empty for none)
     */
    Result transcribe(
            float[] samples,
            String language,
            boolean translate,
            boolean timestamps,
            int beamSize,
            int[] prompt,
            LongFormOptions o) {
        int seekEnd = WhisperDecoding.frames(samples.length);
        List<Window> out = new ArrayList<>();
        if (seekEnd < DELTA_MIN) return new Result(language, out);
        float[] temperatures = o.temperatures();
        Mt19937[] random = new Mt19937[WhisperModel.MAX_BEAMS];
        for (int j = 0; j < random.length; j++) random[j] = new Mt19937(j);
        int[] init = WhisperDecoding.prompt(t, language, translate, timestamps);
        int maxPromptCtx = textCtx / 2; // whisper.cpp: min(n_max_text_ctx (16384), n_text_ctx / 2)
        List<Integer> past = new ArrayList<>();
        for (int id : prompt) past.add(id);
        int seek = 0;
        while (seek + DELTA_MIN < seekEnd) {
            int from = seek * 160, length = Math.min(WhisperNetwork.WINDOW_SAMPLES, samples.length - from);
            session.encode(samples, from, length);
            if (seek > 0 && seek + 500 >= seekEnd) past.clear(); // a short tail: old text makes it repeat itself
            int audioEnd = seekEnd - seek;
            Pass kept = null;
            int best = 0;
            for (int it = 0; it < temperatures.length; it++) {
                float temperature = temperatures[it];
                List<Integer> p = new ArrayList<>();
                if (o.conditionOnPrevious() || seek == 0) {
                    if (temperature < CONDITIONING_CUTOFF && maxPromptCtx > 0 && !past.isEmpty()) {
                        p.add(t.previous());
                        int take = Math.min(maxPromptCtx - 1, past.size());
                        p.addAll(past.subList(past.size() - take, past.size()));
                    }
                }
                for (int id : init) p.add(id);
                int[] fed = p.stream().mapToInt(Integer::intValue).toArray();
                kept = pass(fed, temperature, timestamps, audioEnd, beamSize, o, random, best);
                best = kept.best;
                if (it == temperatures.length - 1) break;
                Decoder d = kept.decoders[best];
                boolean doubtful = d.average < o.logprobThreshold() && kept.noSpeech < o.noSpeechThreshold();
                if (!(d.failed || doubtful || compressed(d, o))) break;
            }
            Decoder d = kept.decoders[best];
            int seekDelta = d.seekDelta;
            List<Step> cur = d.failed ? d.tokens : d.tokens.subList(0, Math.min(d.resultLength, d.tokens.size()));
            boolean noSpeech = kept.noSpeech > o.noSpeechThreshold() && d.average < o.logprobThreshold();
            // the context: what this window's prompt carried (none when it had no previous text), then its result
            List<Integer> next = new ArrayList<>();
            if (kept.prompt.length > init.length && kept.prompt[0] == t.previous())
                for (int i = 1; i < kept.prompt.length - init.length; i++) next.add(kept.prompt[i]);
            if (!noSpeech)
                for (int i = 0; i < d.resultLength && i < d.tokens.size(); i++)
                    next.add(d.tokens.get(i).id());
            past = next;
            List<WhisperModel.Segment> segments =
                    noSpeech || cur.isEmpty() ? List.of() : segments(cur, kept.firstTid, seek, seekDelta);
            int n = cur.size();
            int beg = t.timestampBegin();
            if (n > 1 && cur.get(n - 2).id() < beg && cur.get(n - 1).id() > beg)
                seekDelta = Math.min(seekEnd - seek, WINDOW_FRAMES); // a single timestamp ends it: skip the window
            float[] probabilities = new float[n];
            for (int i = 0; i < n; i++) probabilities[i] = cur.get(i).p();
            out.add(new Window(
                    seek,
                    seekDelta,
                    kept.temperature,
                    kept.prompt,
                    cur.stream().map(Step::id).toList(),
                    probabilities,
                    d.average,
                    kept.noSpeech,
                    noSpeech,
                    segments));
            seek += seekDelta;
        }
        return new Result(language, out);
    }

    /** openai-whisper's test, when asked for: the text's bytes over their zlib-compressed size above the threshold. */
    private boolean compressed(Decoder d, LongFormOptions o) {
        if (Double.isInfinite(o.compressionRatioThreshold())) return false;
        List<Integer> text = new ArrayList<>();
        for (int i = 0; i < d.resultLength && i < d.tokens.size(); i++)
            if (d.tokens.get(i).id() < t.eot()) text.add(d.tokens.get(i).id());
        return compressionRatio(t.decode(text)) > o.compressionRatioThreshold();
    }

    /** openai-whisper's {@code compression_ratio}: UTF-8 bytes over their zlib size (level 6, Python's default). */
    static double compressionRatio(String text) {
        byte[] in = text.getBytes(StandardCharsets.UTF_8);
        if (in.length == 0) return 0;
        java.util.zip.Deflater z = new java.util.zip.Deflater(6);
        try {
            z.setInput(in);
            z.finish();
            byte[] buf = new byte[in.length + 64];
            int n = 0;
            while (!z.finished()) n += z.deflate(buf, n, buf.length - n);
            return in.length / (double) n;
        } finally {
            z.end();
        }
    }

    /** The decoders of one temperature's pass; {@code best} the one ranked first. */
    private record Pass(int[] prompt, float temperature, Decoder[] decoders, int best, double noSpeech, int firstTid) {}

    /**
     * One temperature's decoding of the encoded window: the prompt fed, then greedy or beam search (temperature 0) or
     * {@code bestOf} sampled decoders, ranked as whisper.cpp ranks them. {@code previousBest} stays the best when all
     * fail (whisper.cpp keeps its index across temperatures).
     */
    private Pass pass(
            int[] prompt,
            float temperature,
            boolean timestamps,
            int audioEnd,
            int beamSize,
            LongFormOptions o,
            Mt19937[] random,
            int previousBest) {
        float[] logits = null;
        double noSpeech = Double.NaN;
        for (int i = 0; i < prompt.length; i++) {
            logits = session.step(prompt[i], i);
            if (prompt[i] == t.sot()) noSpeech = Math.exp(WhisperDecoding.logSoftmax(logits)[t.noSpeech()]);
        }
        int limit = Math.min(textCtx / 2 - 4, textCtx - prompt.length);
        Decoder first = new Decoder();
        process(first, logits.clone(), temperature, timestamps);
        int firstTid = temperature == 0 ? first.greedy.likeliestTimestamp() : likeliestTimestamp(first.probs);
        if (beamSize > 1) {
            // beam search chosen: whisper.cpp's fallback passes run its beam loop too, with best-of decoders
            int decoders = temperature > 0 ? o.bestOf() : beamSize;
            try (WhisperSteps.Decoders beams = session.decoders(decoders, prompt)) {
                var r = WhisperBeamSearch.search(
                        beams,
                        logits,
                        prompt.length,
                        t,
                        timestamps,
                        audioEnd,
                        decoders,
                        beamSize,
                        temperature,
                        limit,
                        random,
                        o.entropyThreshold(),
                        previousBest);
                Decoder d = new Decoder();
                d.tokens.addAll(r.tokens());
                d.resultLength = r.resultLength();
                d.seekDelta = r.seekDelta();
                d.failed = r.failed();
                d.average = r.score();
                // only the best beam's state is kept; its index carries to the next temperature, as whisper.cpp's
                // best_decoder_id does
                Decoder[] ranked = new Decoder[r.best() + 1];
                ranked[r.best()] = d;
                return new Pass(prompt, temperature, ranked, r.best(), noSpeech, firstTid);
            }
        }
        int n = temperature > 0 ? o.bestOf() : 1;
        WhisperStepAhead ahead = new WhisperStepAhead(session, t, temperature == 0 ? sums : null);
        Decoder[] d = new Decoder[n];
        for (int j = 0; j < n; j++) {
            d[j] = new Decoder();
            d[j].probs = first.probs;
            d[j].logprobs = first.logprobs;
            d[j].greedy = first.greedy;
        }
        WhisperSteps.Decoders many = n > 1 ? session.decoders(n, prompt) : null;
        try {
            int beg = t.timestampBegin();
            for (int i = 0; i < limit; i++) {
                for (int j = 0; j < n; j++) {
                    Decoder k = d[j];
                    if (!k.active()) continue;
                    if (temperature == 0) {
                        k.tokens.add(new Step(k.greedy.id(), k.greedy.probability(), k.greedy.logprob()));
                    } else {
                        int id = WhisperBeamSearch.draw(WhisperBeamSearch.cumulative(k.probs), random[j]);
                        k.tokens.add(new Step(id, k.probs[id], k.logprobs[id]));
                    }
                }
                boolean all = true;
                for (Decoder k : d) {
                    if (!k.active()) continue;
                    int id = k.tokens.getLast().id();
                    if (id > beg) {
                        int delta = 2 * (id - beg);
                        if (k.hasTs && k.seekDelta > delta && k.resultLength < i) {
                            k.failed = true; // a timestamp that goes back
                            continue;
                        }
                        k.seekDelta = delta;
                        k.resultLength = i + 1;
                        k.hasTs = true;
                    }
                    boolean audioDone = k.seekDelta + DELTA_MIN >= audioEnd;
                    if (id == t.eot() || (k.hasTs && audioDone)) {
                        if (k.resultLength == 0 && timestamps) {
                            if (audioDone) k.resultLength = i + 1;
                            else {
                                k.failed = true;
                                continue;
                            }
                        }
                        if (!timestamps) {
                            k.resultLength = i + 1;
                            k.seekDelta = WINDOW_FRAMES;
                        }
                        k.completed = true;
                        continue;
                    }
                    if (i == limit - 1 && (k.resultLength == 0 || k.seekDelta < WINDOW_FRAMES / 2)) {
                        k.failed = true; // stuck: whisper.cpp's repetition guard
                        continue;
                    }
                    all = false;
                }
                if (all) break;
                for (int j = 0; j < n; j++) {
                    Decoder k = d[j];
                    if (!k.active()) continue;
                    int token = k.tokens.getLast().id(), position = prompt.length + i;
                    float[] next = n > 1 ? many.step(j, token, position) : ahead.step(token, position);
                    if (n == 1 && temperature == 0)
                        k.greedy = ahead.greedy(next, taken(k), timestamps, i + 1 < limit ? position + 1 : -1);
                    else process(k, next, temperature, timestamps);
                }
            }
        } finally {
            if (many != null) many.close();
            aheadTaken += ahead.taken;
            aheadRedone += ahead.redone;
        }
        int best = previousBest < n ? previousBest : 0;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < n; j++) {
            Decoder k = d[j];
            if (k.failed) continue;
            if (k.resultLength > 0) {
                k.average = WhisperBeamSearch.score(k.tokens, k.resultLength);
                k.score = k.average; // length penalty off: the sum over the length
            }
            if (k.resultLength > 32 && WhisperBeamSearch.entropy(k.tokens, k.resultLength) < o.entropyThreshold()) {
                k.failed = true; // a repetition loop
                continue;
            }
            if (bestScore < k.score) {
                bestScore = k.score;
                best = j;
            }
        }
        return new Pass(prompt, temperature, d, best, noSpeech, firstTid);
    }

    /**
     * whisper.cpp's {@code whisper_process_logits}: the logits divided by the temperature (above 0), the rules
     * applied; the decoder's probabilities (0 where a rule forbids) and log-probabilities, or at temperature 0 only
     * the token greedy decoding takes from them ({@link WhisperDecoding#greedy}: the same token, in a fraction of the
     * time).
     */
    private void process(Decoder k, float[] logits, float temperature, boolean timestamps) {
        List<WhisperDecoding.Token> taken = taken(k);
        if (temperature == 0) {
            k.greedy = WhisperDecoding.greedy(logits, taken, t, timestamps);
            return;
        }
        for (int i = 0; i < logits.length; i++) logits[i] /= temperature;
        double[] lp = WhisperDecoding.shape(logits, taken, t, timestamps);
        float[] probs = new float[logits.length], logprobs = new float[logits.length];
        for (int i = 0; i < logits.length; i++) {
            logprobs[i] = (float) lp[i];
            probs[i] = logits[i] == Float.NEGATIVE_INFINITY ? 0 : (float) Math.exp(lp[i]);
        }
        k.probs = probs;
        k.logprobs = logprobs;
    }

    /** The decoder's tokens so far, as the rules read them. */
    private static List<WhisperDecoding.Token> taken(Decoder k) {
        List<WhisperDecoding.Token> taken = new ArrayList<>(k.tokens.size());
        for (Step s : k.tokens) taken.add(new WhisperDecoding.Token(s.id(), s.p()));
        return taken;
    }

    /** whisper.cpp's {@code tid}: the likeliest timestamp token (the first of equals; 0 when none is possible). */
    private int likeliestTimestamp(float[] probs) {
        int tid = 0;
        double max = 0;
        for (int i = t.timestampBegin(); i < probs.length; i++)
            if (max < probs[i]) {
                max = probs[i];
                tid = i;
            }
        return tid;
    }

    /**
     * whisper.cpp's segments of a window's result: text closed by a timestamp after 0.00 runs from the last
     * timestamp (the first token's likeliest one at the start) to it; text after the last runs to the seek delta.
     * Seconds on the recording's time line.
     */
    private List<WhisperModel.Segment> segments(List<Step> cur, int firstTid, int seek, int seekDelta) {
        List<WhisperModel.Segment> out = new ArrayList<>();
        int beg = t.timestampBegin();
        int t0 = seek + 2 * ((cur.get(0).id() >= beg ? cur.get(0).id() : firstTid) - beg);
        List<Integer> text = new ArrayList<>();
        for (int i = 0; i < cur.size(); i++) {
            int id = cur.get(i).id();
            if (id < t.eot()) text.add(id);
            if (id > beg) {
                int t1 = seek + 2 * (id - beg);
                if (!text.isEmpty())
                    out.add(new WhisperModel.Segment(t0 / 100.0, t1 / 100.0, t.decode(text), List.copyOf(text)));
                text.clear();
                t0 = t1;
                while (i + 1 < cur.size() && cur.get(i + 1).id() > beg) {
                    i++;
                    t0 = seek + 2 * (cur.get(i).id() - beg);
                }
            }
        }
        if (!text.isEmpty())
            out.add(new WhisperModel.Segment(
                    t0 / 100.0, (seek + seekDelta) / 100.0, t.decode(text), List.copyOf(text)));
        return out;
    }
}
