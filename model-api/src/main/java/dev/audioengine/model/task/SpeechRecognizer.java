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
 * Long audio is transcribed the way the CLI does it: a voice activity detector finds the speech, stretches apart by
 * pauses under {@link AsrOptions#mergeGapSeconds()} are joined into windows no longer than
 * {@link AsrOptions#maxWindowSeconds()} (a window that would grow longer is cut at its longest pause), each window is
 * decoded on its own, and each {@link TranscriptSegment} carries its window's times. Audio with no speech gives an empty transcript.
 */
public interface SpeechRecognizer extends TaskModel {
    /**
     * The rate the model hears (Moonshine: 16 kHz); the file and stream forms resample other rates, while the array
     * forms take no rate and read their samples as being at this one (resample before calling them).
     *
     * @return samples per second
     */
    int sampleRate();

    /**
     * Transcribes mono samples at {@link #sampleRate()}, segmented by voice activity.
     *
     * @param samples the whole recording, mono, at {@link #sampleRate()}, finite values (nominally in [-1, 1])
     * @param options segmentation and decoding settings; {@link AsrOptions#DEFAULTS} for the CLI's
     * @return the transcript; empty when no speech was found
     * @throws IllegalArgumentException if a sample is NaN or infinite
     */
    Transcript transcribe(float[] samples, AsrOptions options);

    /**
     * Transcribes one window of speech as it is, with no voice activity detection: what a caller that segments audio
     * itself uses. Windows longer than the model's limit are refused.
     *
     * @param samples the window, mono, at {@link #sampleRate()}, no longer than {@code options.maxWindowSeconds()}
     * @param startSample where the window starts in the caller's recording; only copied into the segment's times
     * @param options the window limit and the decoder's token budget are read; the VAD options are not
     * @return the window's text and times
     * @throws IllegalArgumentException if the window is longer than the limit
     */
    TranscriptSegment transcribeWindow(float[] samples, long startSample, AsrOptions options);

    /**
     * Transcribes an audio file (any format the audio module reads), decoded and resampled block by block.
     *
     * @param audioFile a WAV, FLAC or other file the audio module decodes; several channels are mixed to mono
     * @param options segmentation and decoding settings
     * @return the transcript; segment times are at {@link #sampleRate()}, not the file's rate
     * @throws IOException if the file cannot be read or decoded (an {@link dev.audioengine.audio.AudioFormatException}
     *     for a format it does not support)
     */
    default Transcript transcribe(Path audioFile, AsrOptions options) throws IOException {
        try (AudioStream in = AudioStream.open(audioFile)) {
            return transcribe(in, options);
        }
    }

    /**
     * Transcribes what an open audio stream delivers until its end; the stream is resampled to {@link #sampleRate()}.
     *
     * @param in an open stream, read to its end; the caller closes it. Unless it already delivers {@link
     *     #sampleRate()}, nothing may have been read from it yet, since it is resampled here
     * @param options segmentation and decoding settings
     * @return the transcript; segment times are at {@link #sampleRate()}
     * @throws IOException if reading or decoding the stream fails (an {@link
     *     dev.audioengine.audio.AudioFormatException} for bad or non-finite audio)
     */
    default Transcript transcribe(AudioStream in, AsrOptions options) throws IOException {
        return transcribe(in, options, segment -> {});
    }

    /**
     * As {@link #transcribe(AudioStream, AsrOptions)}, handing each segment to {@code onSegment} as soon as its window is
     * decoded, in order, on the calling thread, while the rest of the stream is still unread: what a server streams to
     * its client as it goes. The returned transcript holds the same segments.
     *
     * @param in an open stream, read to its end and switched to {@link #sampleRate()} with {@link
     *     AudioStream#resampleTo} (so nothing may have been read from it yet unless it is at that rate already); the
     *     caller closes it
     * @param options segmentation and decoding settings
     * @param onSegment called once per segment, in time order, on the calling thread; an exception it throws ends the
     *     transcription
     * @return the transcript of every segment
     * @throws IOException if reading or decoding the stream fails
     */
    Transcript transcribe(AudioStream in, AsrOptions options, Consumer<TranscriptSegment> onSegment) throws IOException;

    /**
     * A live session: audio pushed as it arrives, partial text as it grows, final text per speech segment.
     *
     * @param options segmentation and decoding settings; {@link AsrOptions#partialEverySeconds()} paces the partials
     * @return a new session at {@link #sampleRate()}, owned by the caller, who closes it before this recognizer
     */
    AsrStream stream(AsrOptions options);

    /**
     * Checks, before any audio is read, that this recognizer can do what {@code options} ask of the language and the
     * task (a language it does not hear, translation where it cannot translate), so that a server can refuse the
     * request at once instead of failing its work later.
     *
     * @param options the options a transcription would be given
     * @throws IllegalArgumentException naming what it cannot do, as {@link #transcribe(float[], AsrOptions)} would
     *     with the same options; the default accepts everything
     */
    default void requireSupported(AsrOptions options) {}

    /**
     * Decodes the windows of concurrent callers together, up to {@code batching.maxBatch()} sequences per decoder step
     * (see {@link Batching}). Set it before the first call; a family that decodes one window at a time keeps
     * {@link Batching#NONE} and says so in {@link #batching()}.
     *
     * @param batching the batch size and memory budget; ignored by the default
     */
    default void batching(Batching batching) {}

    /**
     * The batching in effect.
     *
     * @return what {@link #batching(Batching)} set, or {@link Batching#NONE} for a recognizer that does not batch
     */
    default Batching batching() {
        return Batching.NONE;
    }

    /**
     * What batched decoding has done so far ({@link BatchStats#NONE} when this recognizer does not batch).
     *
     * @return a snapshot: the slot and queue figures as of now, the counters since loading
     */
    default BatchStats batchStats() {
        return BatchStats.NONE;
    }

    /** Opens one recording for {@link #transcribeEach}. */
    @FunctionalInterface
    interface AudioSource {
        /**
         * Opens the recording; called on the worker thread that transcribes it, which closes the stream after.
         *
         * @return a new open stream
         * @throws IOException if it cannot be opened; only this source's future fails
         */
        AudioStream open() throws IOException;
    }

    /**
     * {@link #transcribeEach} of audio files.
     *
     * @param files audio files, each opened when its turn comes
     * @param options segmentation and decoding settings, shared by all
     * @return one future per file, in the files' order; a file that cannot be read fails its own future with an
     *     {@link java.io.UncheckedIOException}
     */
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
     *
     * @param sources the recordings, each opened on its worker thread when its turn comes
     * @param options segmentation and decoding settings, shared by all
     * @return one future per source, in order; a failure ({@link java.io.UncheckedIOException} for an I/O error)
     *     completes only that source's future exceptionally
     */
    default List<CompletableFuture<Transcript>> transcribeEach(
            List<? extends AudioSource> sources, AsrOptions options) {
        return transcribeEach(this, sources, options, batching().maxBatch());
    }

    /**
     * {@link #transcribeEach} of {@code asr} on up to {@code threads} threads.
     * The threads are daemon threads of a pool made for this call, which shuts down after the last source.
     *
     * @param asr the recognizer every source goes to
     * @param sources the recordings
     * @param options segmentation and decoding settings, shared by all
     * @param threads the most sources transcribed at once; values below 1 count as 1, and no more threads are made
     *     than there are sources
     * @return one future per source, in order
     */
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
