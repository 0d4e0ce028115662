package dev.audioengine.models.whisper;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Beam search over one window as whisper.cpp 1.8 ({@code whisper_full_with_state}, strategy
 * {@code WHISPER_SAMPLING_BEAM_SEARCH}, temperature 0, what {@code whisper-cli -bs N -nf} runs) does it, rule for rule:
 * <ol>
 *   <li>N decoders share the prompt; each step, every unfinished decoder offers N candidates: its sequence plus a token
 *       <em>drawn</em> from its shaped distribution (whisper.cpp's {@code whisper_sample_token_topk} samples with
 *       {@code std::discrete_distribution} and the decoder's own {@code std::mt19937} seeded with its index, rather
 *       than taking the N likeliest; the same token may be drawn twice). Reproduced here with libstdc++'s
 *       arithmetic, so that the draws are the same numbers as whisper.cpp's built with GCC.
 *   <li>All candidates are sorted by the sum of their tokens' log-probabilities (ties: the lower decoder first); the
 *       unfinished decoders take them in order, skipping candidates equal to the one just taken (from the second
 *       step on), wrapping round when they run out. A decoder that takes another's candidate takes its self cache.
 *   <li>A decoder finishes at EOT (its result then includes the EOT), or with timestamps when its last timestamp is
 *       within 100 ms of the audio's end; it fails when a timestamp goes back, when it has taken nothing by EOT, or
 *       when the token limit comes without a result reaching past half the window.
 *   <li>The best decoder has the highest sum of log-probabilities over its result divided by the result's length
 *       (length penalty off); a result of more than 32 tokens whose last 32 have entropy below 2.4 nats fails
 *       (a repetition loop).
 * </ol>
 * The log-probabilities are whisper.cpp's: the log-softmax of the shaped logits, text tokens −∞ without renormalizing
 * when timestamps win ({@link WhisperDecoding#shape}). The random generators start afresh for every window (whisper.cpp
 * seeds them once per {@code whisper_full} call, so its later windows of one file continue them).
 */
final class WhisperBeamSearch {
    /** whisper.cpp's entropy_thold (whisper-cli's -et default): a result this repetitive fails. */
    static final double ENTROPY_THRESHOLD = 2.4;

    /** whisper.cpp's seek_delta before any timestamp: the whole window, in 10 ms frames. */
    private static final int WHOLE_WINDOW = 3000;

    /** The decoder caches, one per beam, that beam search steps and forks. */
    interface Beams {
        /** Feeds {@code token} at {@code position} to beam {@code beam} → logits [V]. */
        float[] step(int beam, int token, int position);

        /** Every beam b continues beam {@code from[b]}: its self cache becomes a copy of that one's, all at once. */
        void fork(int[] from);
    }

    /** A token taken, with its probability and log-probability after the rules (whisper.cpp's p and plog). */
    record Step(int id, float p, float plog) {}

    /** The best beam: its tokens up to its end (EOT excluded) and its mean log-probability (−∞ if all failed). */
    record Result(List<Step> tokens, double averageLogProbability) {}

    private record Candidate(
            int decoder, int seekDelta, boolean hasTs, List<Step> tokens, int resultLength, double sum) {}

    private static final class Decoder {
        final Mt19937 random;
        List<Step> tokens = List.of();
        double sum; // sum_logprobs_all: every token taken
        int resultLength, seekDelta = WHOLE_WINDOW;
        boolean hasTs, completed, failed;
        float[] probs, logprobs;

        Decoder(Mt19937 random) {
            this.random = random;
        }

        boolean active() {
            return !completed && !failed;
        }
    }

    private WhisperBeamSearch() {}

    /**
     * Decodes a window whose prompt has been fed (all beams' caches hold it; {@code promptLogits} are the logits after
     * its last token). Returns the best beam's tokens up to its end, EOT excluded, and its mean log-probability.
     *
     * @param audioEnd the audio's length in 10 ms frames ({@link WhisperDecoding#frames})
     * @param limit    the most tokens to take
     */
    static Result decode(
            Beams beams,
            float[] promptLogits,
            int promptLength,
            WhisperTokenizer t,
            boolean timestamps,
            int audioEnd,
            int beamSize,
            int limit) {
        Mt19937[] random = new Mt19937[beamSize];
        for (int j = 0; j < beamSize; j++) random[j] = new Mt19937(j);
        Outcome best = search(
                beams,
                promptLogits,
                promptLength,
                t,
                timestamps,
                audioEnd,
                beamSize,
                beamSize,
                0,
                limit,
                random,
                ENTROPY_THRESHOLD,
                0);
        List<Step> out = best.tokens();
        if (!out.isEmpty() && out.getLast().id() == t.eot()) out = out.subList(0, out.size() - 1);
        // with the length penalty off the score is the mean log-probability
        return new Result(List.copyOf(out), best.score());
    }

    /**
     * The best beam as whisper.cpp leaves it for its long-form loop: every token it took (its result is the first
     * {@code resultLength}; EOT included where taken), result length, seek delta (10 ms frames), whether it failed, and its score
     * (the result's mean log-probability; −∞ when every beam failed), and its index among the decoders.
     */
    record Outcome(List<Step> tokens, int resultLength, int seekDelta, boolean failed, double score, int best) {}

    /**
     * As {@link #decode}, drawing from {@code random} (one generator per beam, continued from earlier windows as
     * whisper.cpp's {@code whisper_full} continues them over a file), a result of more than 32 tokens whose last 32
     * have entropy below {@code entropyThreshold} nats failing; {@code decoders} beams each offer
     * {@code candidatesPerDecoder} draws a step from its distribution of logits divided by {@code temperature} (above
     * 0; at 0 both are the beam size). With beam search chosen, whisper.cpp's fallback passes above
     * temperature 0 run this very loop with best-of decoders and the beam size's draws each ({@code whisper-cli -bs N
     * -bo M}: {@code n_decoders_cur} = M, {@code whisper_sample_token_topk} with k = N), not plain sampling.
     * {@code previousBest} is the best when every decoder fails (whisper.cpp keeps its index across temperatures).
     */
    static Outcome search(
            Beams beams,
            float[] promptLogits,
            int promptLength,
            WhisperTokenizer t,
            boolean timestamps,
            int audioEnd,
            int decoders,
            int candidatesPerDecoder,
            float temperature,
            int limit,
            Mt19937[] random,
            double entropyThreshold,
            int previousBest) {
        Decoder[] d = new Decoder[decoders];
        for (int j = 0; j < decoders; j++) d[j] = new Decoder(random[j]);
        process(d[0], promptLogits.clone(), temperature, t, timestamps);
        for (int j = 1; j < decoders; j++) {
            d[j].probs = d[0].probs;
            d[j].logprobs = d[0].logprobs;
        }
        int beg = t.timestampBegin();
        for (int i = 0; i < limit; i++) {
            List<Candidate> candidates = new ArrayList<>();
            for (int j = 0; j < decoders; j++) {
                Decoder k = d[j];
                if (!k.active()) continue;
                double[] cumulative = cumulative(k.probs);
                for (int n = 0; n < candidatesPerDecoder; n++) {
                    int id = draw(cumulative, k.random);
                    Step s = new Step(id, k.probs[id], k.logprobs[id]);
                    List<Step> tokens = new ArrayList<>(k.tokens);
                    tokens.add(s);
                    candidates.add(new Candidate(j, k.seekDelta, k.hasTs, tokens, k.resultLength, k.sum + s.plog()));
                }
            }
            candidates.sort(
                    Comparator.comparingDouble((Candidate c) -> -c.sum()).thenComparingInt(Candidate::decoder));
            int[] from = new int[decoders];
            int next = 0;
            for (int j = 0; j < decoders; j++) {
                from[j] = j;
                Decoder k = d[j];
                if (!k.active()) continue;
                if (next >= candidates.size()) next = 0;
                Candidate c = candidates.get(next++);
                while (candidates.size() > next
                        && i > 0
                        && sameIds(candidates.get(next).tokens(), c.tokens())) next++;
                from[j] = c.decoder();
                k.seekDelta = c.seekDelta();
                k.hasTs = c.hasTs();
                k.tokens = c.tokens();
                k.resultLength = c.resultLength();
                k.sum = c.sum();
            }
            beams.fork(from);

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
                boolean audioDone = k.hasTs && k.seekDelta + WhisperDecoding.END_MARGIN_FRAMES >= audioEnd;
                if (id == t.eot() || audioDone) {
                    if (k.resultLength == 0 && timestamps) {
                        if (k.seekDelta + WhisperDecoding.END_MARGIN_FRAMES >= audioEnd) k.resultLength = i + 1;
                        else {
                            k.failed = true;
                            continue;
                        }
                    }
                    if (!timestamps) {
                        k.resultLength = i + 1;
                        k.seekDelta = WHOLE_WINDOW;
                    }
                    k.completed = true;
                    continue;
                }
                if (i == limit - 1 && (k.resultLength == 0 || k.seekDelta < WHOLE_WINDOW / 2)) {
                    k.failed = true; // stuck: whisper.cpp's repetition guard
                    continue;
                }
                all = false;
            }
            if (all) break;
            for (int j = 0; j < decoders; j++) {
                Decoder k = d[j];
                if (!k.active()) continue;
                float[] logits = beams.step(j, k.tokens.getLast().id(), promptLength + i);
                process(k, logits, temperature, t, timestamps);
            }
        }
        int best = previousBest < decoders ? previousBest : 0;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < decoders; j++) {
            Decoder k = d[j];
            if (k.failed) continue;
            double score = score(k.tokens, k.resultLength);
            if (k.resultLength > 32 && entropy(k.tokens, k.resultLength) < entropyThreshold) {
                k.failed = true; // a repetition loop
                continue;
            }
            if (bestScore < score) {
                bestScore = score;
                best = j;
            }
        }
        Decoder b = d[best];
        return new Outcome(List.copyOf(b.tokens), b.resultLength, b.seekDelta, b.failed, bestScore, best);
    }

    /** whisper.cpp's sequence score: the result's summed log-probability over its length; −∞ for an empty one. */
    static double score(List<Step> tokens, int resultLength) {
        if (resultLength == 0) return Double.NEGATIVE_INFINITY;
        double sum = 0;
        for (int i = 0; i < resultLength; i++) sum += tokens.get(i).plog();
        return sum / resultLength;
    }

    /** The entropy (nats) of the token counts among the result's last 32 tokens. */
    static double entropy(List<Step> tokens, int resultLength) {
        java.util.Map<Integer, Integer> counts = new java.util.TreeMap<>();
        int from = Math.max(0, resultLength - 32), n = resultLength - from;
        for (int i = from; i < resultLength; i++) counts.merge(tokens.get(i).id(), 1, Integer::sum);
        double e = 0;
        for (int c : counts.values()) {
            double p = c / (double) n;
            e -= p * Math.log(p);
        }
        return e;
    }

    private static boolean sameIds(List<Step> a, List<Step> b) {
        if (a.size() != b.size()) return false;
        for (int i = a.size() - 1; i >= 0; i--) if (a.get(i).id() != b.get(i).id()) return false;
        return true;
    }

    /**
     * The rules on a decoder's logits, divided by the temperature first (above 0, as whisper.cpp's
     * {@code whisper_process_logits}); its probabilities (0 where a rule forbids) and log-probabilities.
     */
    private static void process(Decoder k, float[] logits, float temperature, WhisperTokenizer t, boolean timestamps) {
        if (temperature > 0) for (int i = 0; i < logits.length; i++) logits[i] /= temperature;
        List<WhisperDecoding.Token> taken = new ArrayList<>(k.tokens.size());
        for (Step s : k.tokens) taken.add(new WhisperDecoding.Token(s.id(), s.p()));
        double[] lp = WhisperDecoding.shape(logits, taken, t, timestamps);
        float[] probs = new float[logits.length], logprobs = new float[logits.length];
        for (int i = 0; i < logits.length; i++) {
            logprobs[i] = (float) lp[i];
            probs[i] = logits[i] == Float.NEGATIVE_INFINITY ? 0 : (float) Math.exp(lp[i]);
        }
        k.probs = probs;
        k.logprobs = logprobs;
    }

    /** libstdc++'s discrete_distribution table: the weights summed, each divided by the sum, partial sums, last 1. */
    static double[] cumulative(float[] weights) {
        double sum = 0;
        for (float w : weights) sum += w;
        double[] cp = new double[weights.length];
        double acc = 0;
        for (int i = 0; i < weights.length; i++) cp[i] = acc += weights[i] / sum;
        cp[cp.length - 1] = 1.0;
        return cp;
    }

    /** libstdc++'s discrete_distribution draw: the first index whose cumulative weight is not below a uniform u. */
    static int draw(double[] cumulative, Mt19937 random) {
        double u = random.canonical();
        int lo = 0, hi = cumulative.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < u) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** std::mt19937 (32-bit Mersenne Twister), with libstdc++'s generate_canonical&lt;double, 53&gt; over it. */
    static final class Mt19937 {
        private final int[] mt = new int[624];
        private int index = 624;

        Mt19937(long seed) {
            mt[0] = (int) seed;
            for (int i = 1; i < 624; i++) mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
        }

        /** The next 32-bit output, as an unsigned value. */
        long next() {
            if (index >= 624) {
                for (int i = 0; i < 624; i++) {
                    int y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7fffffff);
                    mt[i] = mt[(i + 397) % 624] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
                }
                index = 0;
            }
            int y = mt[index++];
            y ^= y >>> 11;
            y ^= (y << 7) & 0x9d2c5680;
            y ^= (y << 15) & 0xefc60000;
            y ^= y >>> 18;
            return y & 0xffffffffL;
        }

        /** A uniform double in [0, 1) from two outputs, low word first, as libstdc++ (GCC 12) computes it. */
        double canonical() {
            double sum = 0, scale = 1;
            for (int k = 0; k < 2; k++) {
                sum += next() * scale;
                scale *= 4294967296.0;
            }
            double r = sum / scale;
            return r >= 1 ? Math.nextDown(1.0) : r;
        }
    }
}
