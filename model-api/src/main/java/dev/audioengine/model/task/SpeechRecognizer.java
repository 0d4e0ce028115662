package dev.audioengine.model.task;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.TaskModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A loaded speech recognition model ({@code --task asr}). Thread-safe: one recognizer may serve concurrent callers,
 * each call decoding on state of its own; the {@link AsrStream}s it opens are not, one per audio source.
 * <p>
 * Long audio is transcribed the way the CLI does it: a voice activity detector finds the speech, close stretches are
 * joined into windows no longer than {@link AsrOptions#maxWindowSeconds()}, each window is decoded on its own, and each
 * {@link TranscriptSegment} carries its window's times. Audio with no speech gives an empty transcript.
 */
public interface SpeechRecognizer extends TaskModel {
    /** The rate the model hears (Moonshine: 16 kHz); other rates are resampled by the file forms, refused by the array forms. */
    int sampleRate();

    /** Transcribes mono samples at {@link #sampleRate()}, segmented by voice activity. */
    Transcript transcribe(float[] samples, AsrOptions options);

    /**
     * Transcribes one window of speech as it is, with no voice activity detection: what a caller that segments audio
     * itself uses. Windows longer than the model's limit are refused.
     */
    TranscriptSegment transcribeWindow(float[] samples, long startSample, AsrOptions options);

    /** Transcribes an audio file (any format the audio module reads), decoded and resampled block by block. */
    default Transcript transcribe(Path audioFile, AsrOptions options) throws IOException {
        try (AudioStream in = AudioStream.open(audioFile)) {
            return transcribe(in, options);
        }
    }

    /** Transcribes what an open audio stream delivers until its end; the stream is resampled to {@link #sampleRate()}. */
    default Transcript transcribe(AudioStream in, AsrOptions options) throws IOException {
        return transcribe(in, options, segment -> {});
    }

    /**
     * As {@link #transcribe(AudioStream, AsrOptions)}, handing each segment to {@code onSegment} as soon as its window is
     * decoded, in order, on the calling thread, while the rest of the stream is still unread: what a server streams to
     * its client as it goes. The returned transcript holds the same segments.
     */
    Transcript transcribe(AudioStream in, AsrOptions options, Consumer<TranscriptSegment> onSegment) throws IOException;

    /** A live session: audio pushed as it arrives, partial text as it grows, final text per speech segment. */
    AsrStream stream(AsrOptions options);

    /**
     * Decodes the windows of concurrent callers together, up to {@code batching.maxBatch()} sequences per decoder step
     * (see {@link Batching}). Set it before the first call; a family that decodes one window at a time keeps
     * {@link Batching#NONE} and says so in {@link #batching()}.
     */
    default void batching(Batching batching) {}

    /** The batching in effect. */
    default Batching batching() {
        return Batching.NONE;
    }

    /** What batched decoding has done so far ({@link BatchStats#NONE} when this recognizer does not batch). */
    default BatchStats batchStats() {
        return BatchStats.NONE;
    }

    /** Opens one recording for {@link #transcribeEach}. */
    @FunctionalInterface
    interface AudioSource {
        AudioStream open() throws IOException;
    }

    /** {@link #transcribeEach} of audio files. */
    default List<CompletableFuture<Transcript>> transcribeAll(List<Path> files, AsrOptions options) {
        return transcribeEach(
                files.stream().<AudioSource>map(f -> () -> AudioStream.open(f)).toList(), options);
    }

    /**
     * Transcribes many recordings together: up to {@code batching().maxBatch()} of them at once, each on a thread of
     * its own, so that their windows share batched decoder steps. Returns at once with one future per source, in order
     * (a caller prints each as it completes, in order); a source that fails fails its own future only. The transcripts
     * are the ones {@link #transcribe(AudioStream, AsrOptions)} gives each source alone. The threads end with the last
     * source.
     */
    default List<CompletableFuture<Transcript>> transcribeEach(
            List<? extends AudioSource> sources, AsrOptions options) {
        return transcribeEach(this, sources, options, batching().maxBatch());
    }

    /** {@link #transcribeEach} of {@code asr} on up to {@code threads} threads. */
    static List<CompletableFuture<Transcript>> transcribeEach(
            SpeechRecognizer asr, List<? extends AudioSource> sources, AsrOptions options, int threads) {
        int n = Math.max(1, Math.min(sources.size(), threads));
        AtomicInteger count = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "audioengine-transcribe-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<CompletableFuture<Transcript>> out = new ArrayList<>();
            for (AudioSource source : sources) {
                out.add(CompletableFuture.supplyAsync(
                        () -> {
                            try (AudioStream in = source.open()) {
                                return asr.transcribe(in, options);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        },
                        pool));
            }
            return out;
        } finally {
            pool.shutdown(); // queued sources still run; the threads exit after the last
        }
    }
}
