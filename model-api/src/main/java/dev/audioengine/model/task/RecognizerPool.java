package dev.audioengine.model.task;

import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.Task;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One recognizer over several copies of a model, one per device (each loaded on its own engine): every call goes to
 * the copy with the fewest calls in flight, so a folder of recordings or a stream of requests spreads over all the
 * devices. {@link #transcribeEach} runs up to {@code maxBatch} recordings per copy at once. Closing the pool closes
 * the copies (their engines stay the caller's).
 */
public final class RecognizerPool implements SpeechRecognizer {
    private final List<SpeechRecognizer> copies;
    private final AtomicInteger[] inFlight;

    private RecognizerPool(List<SpeechRecognizer> copies) {
        if (copies.isEmpty()) throw new IllegalArgumentException("a recognizer pool needs at least one recognizer");
        int rate = copies.getFirst().sampleRate();
        for (SpeechRecognizer r : copies) {
            if (r.sampleRate() != rate)
                throw new IllegalArgumentException(
                        "a pool's recognizers must hear one rate: " + rate + " Hz and " + r.sampleRate() + " Hz");
        }
        this.copies = List.copyOf(copies);
        this.inFlight = new AtomicInteger[copies.size()];
        for (int i = 0; i < inFlight.length; i++) inFlight[i] = new AtomicInteger();
    }

    /**
     * A pool over {@code copies} (the same model on different devices); one copy is the copy itself, pooled.
     *
     * @param copies at least one recognizer, all at one sample rate; the pool takes them over and closes them
     * @return the pool, a SpeechRecognizer itself, at the copies' sample rate
     * @throws IllegalArgumentException if the list is empty or the rates differ
     */
    public static RecognizerPool of(List<? extends SpeechRecognizer> copies) {
        return new RecognizerPool(List.copyOf(copies));
    }

    /**
     * The pooled recognizers, in the order given.
     *
     * @return an unmodifiable list; closing the pool closes them
     */
    public List<SpeechRecognizer> copies() {
        return copies;
    }

    /** Work on the least busy copy, counted as in flight meanwhile. */
    private <T> T onLeastBusy(Call<T> call) throws IOException {
        int best = 0;
        for (int i = 1; i < inFlight.length; i++) if (inFlight[i].get() < inFlight[best].get()) best = i;
        inFlight[best].incrementAndGet();
        try {
            return call.on(copies.get(best));
        } finally {
            inFlight[best].decrementAndGet();
        }
    }

    private interface Call<T> {
        T on(SpeechRecognizer r) throws IOException;
    }

    @Override
    public Transcript transcribe(float[] samples, AsrOptions options) {
        return unchecked(() -> onLeastBusy(r -> r.transcribe(samples, options)));
    }

    @Override
    public TranscriptSegment transcribeWindow(float[] samples, long startSample, AsrOptions options) {
        return unchecked(() -> onLeastBusy(r -> r.transcribeWindow(samples, startSample, options)));
    }

    @Override
    public Transcript transcribe(AudioStream in, AsrOptions options, Consumer<TranscriptSegment> onSegment)
            throws IOException {
        return onLeastBusy(r -> r.transcribe(in, options, onSegment));
    }

    /** A live session on the copy least busy now; it stays there. */
    @Override
    public AsrStream stream(AsrOptions options) {
        return unchecked(() -> onLeastBusy(r -> r.stream(options)));
    }

    /** The copies are alike: the first speaks for all. */
    @Override
    public void requireSupported(AsrOptions options) {
        copies.getFirst().requireSupported(options);
    }

    /** Up to {@code maxBatch} recordings per copy at once, each on the copy least busy when it starts. */
    @Override
    public List<CompletableFuture<Transcript>> transcribeEach(List<? extends AudioSource> sources, AsrOptions options) {
        return SpeechRecognizer.transcribeEach(
                this, sources, options, batching().maxBatch() * copies.size());
    }

    @Override
    public void batching(Batching batching) {
        copies.forEach(r -> r.batching(batching));
    }

    /** The first copy's (every copy is given the same). */
    @Override
    public Batching batching() {
        return copies.getFirst().batching();
    }

    @Override
    public BatchStats batchStats() {
        BatchStats sum = BatchStats.NONE;
        for (SpeechRecognizer r : copies) sum = sum.plus(r.batchStats());
        return sum;
    }

    @Override
    public int sampleRate() {
        return copies.getFirst().sampleRate();
    }

    @Override
    public Task task() {
        return Task.ASR;
    }

    @Override
    public String describe() {
        return copies.getFirst().describe() + (copies.size() > 1 ? " on " + copies.size() + " devices" : "");
    }

    @Override
    public Optional<RunSummary> runSummary() {
        return copies.getFirst().runSummary();
    }

    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        for (SpeechRecognizer r : copies) {
            try {
                r.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.getFirst();
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
    }

    private interface IoSupplier<T> {
        T get() throws IOException;
    }

    private static <T> T unchecked(IoSupplier<T> s) {
        try {
            return s.get();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
