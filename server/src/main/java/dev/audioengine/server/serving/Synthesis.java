package dev.audioengine.server.serving;

import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SpeechSynthesizer.SpeechPiece;
import dev.audioengine.model.task.SynthesisOptions;
import dev.audioengine.server.http.ApiError;
import java.io.StringReader;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One speech request's synthesis, run on a worker of the model's pool: the text goes through
 * {@link SpeechSynthesizer#stream} and each piece's audio is handed to the request's thread as soon as it is made,
 * so the request can send it while the next piece is synthesized. The pieces wait in an unbounded queue, bounded in
 * fact by the text (--max-input-chars), so a slow client never holds a worker. {@link #close} stops the work at the
 * next piece (a piece in progress runs to its end: the network cannot be interrupted) and waits for it, so the worker
 * is back in the pool when the request ends, however it ends.
 */
public final class Synthesis implements AutoCloseable {
    private static final Object END = new Object();

    private final BlockingQueue<Object> pieces = new LinkedBlockingQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final int sampleRate;
    private Future<Void> work;
    private volatile long samples;
    private volatile double modelSeconds;
    private volatile int count;
    private volatile boolean stopped;

    private Synthesis(int sampleRate) {
        this.sampleRate = sampleRate;
    }

    /** Starts on a worker of {@code pool} (503 when the queue is full or the wait too long). */
    public static Synthesis start(ModelPool pool, SpeechSynthesizer tts, String text, SynthesisOptions options)
            throws InterruptedException {
        Synthesis s = new Synthesis(tts.sampleRate());
        s.work = pool.start(() -> {
            s.run(tts, text, options);
            return null;
        });
        return s;
    }

    private void run(SpeechSynthesizer tts, String text, SynthesisOptions options) {
        try {
            long t0 = System.nanoTime();
            Iterator<SpeechPiece> it;
            try {
                it = tts.stream(new StringReader(text), options);
            } catch (IllegalArgumentException e) {
                // the options are checked here: a voice the model has but cannot speak with (a language its front end
                // lacks)
                throw ApiError.invalid("voice", e.getMessage());
            }
            while (!stop.get()) {
                SpeechPiece p;
                try {
                    if (!it.hasNext()) break;
                    p = it.next();
                } catch (IllegalArgumentException e) {
                    throw ApiError.invalid("input", e.getMessage());
                }
                if (p.sampleRate() != sampleRate) {
                    throw new IllegalStateException(tts.describe() + " made a piece at " + p.sampleRate() + " Hz in a "
                            + sampleRate + " Hz stream");
                }
                samples += p.samples().length;
                count++;
                modelSeconds = (System.nanoTime() - t0) / 1e9;
                pieces.add(p);
            }
            stopped = stop.get();
        } finally {
            pieces.add(END);
        }
    }

    /** The next piece, waiting for it; null once the text is all said. The work's failure is thrown here, as thrown. */
    public SpeechPiece next() throws Exception {
        Object o = pieces.take();
        if (o == END) {
            pieces.add(END); // a later call sees the end too
            ModelPool.result(work);
            return null;
        }
        return (SpeechPiece) o;
    }

    public int sampleRate() {
        return sampleRate;
    }

    /** Seconds of audio made so far. */
    public double audioSeconds() {
        return samples / (double) sampleRate;
    }

    /** Wall seconds the worker spent synthesizing them. */
    public double modelSeconds() {
        return modelSeconds;
    }

    public int pieceCount() {
        return count;
    }

    /** Whether {@link #close} ended the work before the text was all said. */
    boolean stopped() {
        return stopped;
    }

    /** Stops at the next piece and waits for the worker to let go; a failure met after the request stopped listening is dropped. */
    @Override
    public void close() {
        stop.set(true);
        try {
            ModelPool.result(work);
        } catch (Exception ignored) {
            // nobody reads the rest: the request already ended (or reported the failure through next())
        }
    }
}
