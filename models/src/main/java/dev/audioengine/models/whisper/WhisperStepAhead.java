package dev.audioengine.models.whisper;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Greedy decoding's step ahead, for one decoder over its {@link WhisperSteps}: while another thread forms
 * {@link WhisperDecoding#greedy}'s sums over the vocabulary (about 0.3 ms a token on a 2-core VM, in series with the
 * device's step), the next position is fed the likeliest token the rules leave ({@link WhisperDecoding#likeliest}).
 * When greedy takes that token, the next step's logits are already there; when it takes another (a timestamp whose
 * summed probability wins, or a near tie), the position is fed again. The tokens and their probabilities are those of
 * the plain loop, bit for bit ({@code WhisperStepAheadTest}): a wrong guess only writes the key and value rows of a
 * position that the right step writes again before anything reads them (the decoder's length mask), and after a
 * window's last token nothing reads them at all.
 * <p>
 * Worth it where the device is not the host: on the CPU backend the sums would take a core from the step itself
 * ({@link WhisperModel#STEP_AHEAD}). Without an executor, every call is the plain loop's. Not a capability: it runs no
 * other op and changes no result on any backend, so there is nothing for a backend to verify; like the batch size the
 * CLI and the server choose, it follows the device's kind (whether it shares the host's cores), not the backend.
 */
final class WhisperStepAhead {
    private final WhisperSteps session;
    private final WhisperTokenizer t;
    private final Executor sums;
    private int aheadToken = -1, aheadPosition = -1;
    private float[] ahead;
    /** Steps ahead whose token greedy took, and those it did not (the position fed again): for tests and docs. */
    int taken, redone;

    /** @param sums the thread greedy's sums run on, or null to decode as the plain loop does */
    WhisperStepAhead(WhisperSteps session, WhisperTokenizer tokenizer, Executor sums) {
        this.session = session;
        this.t = tokenizer;
        this.sums = sums;
    }

    /**
     * {@link WhisperDecoding#greedy} on {@code logits} (which it changes in place); with the step ahead on and a
     * {@code next} position to feed ({@code >= 0}), that position is fed the likeliest token meanwhile, unless that
     * is EOT, which ends the decoder.
     */
    WhisperDecoding.Greedy greedy(float[] logits, List<WhisperDecoding.Token> taken, boolean timestamps, int next) {
        forget();
        if (sums == null || next < 0) return WhisperDecoding.greedy(logits, taken, t, timestamps);
        int guess = WhisperDecoding.likeliest(logits, taken, t, timestamps);
        // from here the other thread owns logits
        CompletableFuture<WhisperDecoding.Greedy> greedy =
                CompletableFuture.supplyAsync(() -> WhisperDecoding.greedy(logits, taken, t, timestamps), sums);
        try {
            if (guess >= 0 && guess != t.eot()) {
                ahead = session.step(guess, next);
                aheadToken = guess;
                aheadPosition = next;
            }
        } catch (RuntimeException | Error e) {
            greedy.handle((g, x) -> null).join(); // the sums end before the failure goes up
            throw e;
        }
        try {
            return greedy.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw e;
        }
    }

    /** The logits of {@code token} fed at {@code position}: the step ahead's when it fed them, else a step now. */
    float[] step(int token, int position) {
        boolean guessed = ahead != null && aheadToken == token && aheadPosition == position;
        float[] out = guessed ? ahead : null;
        if (guessed) taken++;
        else if (ahead != null) redone++;
        forget();
        return out != null ? out : session.step(token, position);
    }

    /** Drops a step ahead that will not be asked for (the decoder ended, or the session is fed otherwise). */
    void forget() {
        ahead = null;
        aheadToken = aheadPosition = -1;
    }
}
