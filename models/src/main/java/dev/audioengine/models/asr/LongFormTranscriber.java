package dev.audioengine.models.asr;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Transcribes audio of any length in bounded memory: blocks go through an offline voice activity detector, its
 * segments are planned into windows ({@link SpeechWindows}), and each window is decoded as soon as it is settled, so
 * segments come out in order while the audio is still being read. Only the audio a window may still need is kept:
 * from the start of the window not settled yet, or from where speech not reported yet can begin
 * ({@link UnreportedSpeechBound}), whichever is earlier. That is at most a window and a segment, plus what the
 * detector holds back (Silero: up to one batch, 16 s).
 * <p>
 * One transcriber per audio source; not thread-safe. Closing it closes the detector session.
 */
public final class LongFormTranscriber implements AutoCloseable {
    /** Blocks are fed to the detector in pieces of at most this many samples, so that a huge block is not kept whole. */
    private static final int PIECE = 1 << 14;

    private final OfflineVad vad;
    private final int chunk;
    private final FloatRing audio = new FloatRing();
    private final FloatRing probabilities = new FloatRing(); // by chunk index, for the cuts of long segments
    private final RingWindowDecoder decoder;
    /** Windows handed to decoder threads and not yet returned, in order; empty when windows are decoded inline. */
    private final ArrayDeque<Future<TranscriptSegment>> inFlight = new ArrayDeque<>();

    private final int windowsInFlight;
    private ExecutorService decoding;
    private final SpeechWindows windows;
    private final UnreportedSpeechBound unreported;
    private long samples;
    private boolean finished, closed;

    /**
     * @param vad       a fresh session at {@link WindowDecoder#SAMPLE_RATE}, opened with {@code options.vad()}; this transcriber owns it
     * @param chunkSize the detector's samples per probability
     */
    public LongFormTranscriber(OfflineVad vad, int chunkSize, WindowDecoder decoder, AsrOptions options) {
        this(vad, chunkSize, decoder, options, 1);
    }

    /**
     * As {@link #LongFormTranscriber(OfflineVad, int, WindowDecoder, AsrOptions)}, decoding up to
     * {@code windowsInFlight} windows at once on threads of this transcriber's own while the detector reads on: a
     * decoder that batches (Moonshine with {@code --max-batch}) then decodes a long recording's windows in shared
     * steps. Segments still come out in order, each once every window before it is decoded; a window holds a copy of
     * its audio while it waits. 1 decodes each window on the calling thread as it settles.
     */
    public LongFormTranscriber(
            OfflineVad vad, int chunkSize, WindowDecoder decoder, AsrOptions options, int windowsInFlight) {
        if (windowsInFlight < 1)
            throw new IllegalArgumentException("windows in flight must be at least 1, got " + windowsInFlight);
        this.windowsInFlight = windowsInFlight;
        if (vad.sampleRate() != WindowDecoder.SAMPLE_RATE) {
            throw new IllegalArgumentException("the VAD session runs at " + vad.sampleRate()
                    + " Hz; windows are decoded at " + WindowDecoder.SAMPLE_RATE + " Hz");
        }
        this.vad = vad;
        this.chunk = chunkSize;
        this.decoder = new RingWindowDecoder(audio, decoder);
        this.unreported = new UnreportedSpeechBound(options.vad(), chunkSize, WindowDecoder.SAMPLE_RATE);
        this.windows = new SpeechWindows(options, WindowDecoder.SAMPLE_RATE, new ChunkProbabilities() {
            @Override
            public int chunkSize() {
                return chunk;
            }

            @Override
            public float at(long c) {
                return probabilities.holds(c) ? probabilities.get(c) : Float.NaN;
            }
        });
    }

    /** A transcriber on a new offline session of {@code vad}. */
    public static LongFormTranscriber open(VoiceActivityDetector vad, WindowDecoder decoder, AsrOptions options) {
        return open(vad, decoder, options, 1);
    }

    /** A transcriber on a new offline session of {@code vad}, up to {@code windowsInFlight} windows decoded at once. */
    public static LongFormTranscriber open(
            VoiceActivityDetector vad, WindowDecoder decoder, AsrOptions options, int windowsInFlight) {
        return new LongFormTranscriber(
                vad.offline(WindowDecoder.SAMPLE_RATE, options.vad()),
                vad.chunkSize(WindowDecoder.SAMPLE_RATE),
                decoder,
                options,
                windowsInFlight);
    }

    /** Transcribes 16 kHz samples. */
    public static Transcript transcribe(
            VoiceActivityDetector vad, WindowDecoder decoder, AsrOptions options, float[] samples) {
        return transcribe(vad, decoder, options, samples, 1);
    }

    /** Transcribes 16 kHz samples, up to {@code windowsInFlight} windows decoded at once. */
    public static Transcript transcribe(
            VoiceActivityDetector vad,
            WindowDecoder decoder,
            AsrOptions options,
            float[] samples,
            int windowsInFlight) {
        try (LongFormTranscriber t = open(vad, decoder, options, windowsInFlight)) {
            List<TranscriptSegment> out = new ArrayList<>(t.accept(samples, 0, samples.length));
            out.addAll(t.finish());
            return t.transcript(out);
        }
    }

    /** Transcribes what the stream delivers until its end, resampled to 16 kHz. */
    public static Transcript transcribe(
            VoiceActivityDetector vad, WindowDecoder decoder, AsrOptions options, AudioStream in) throws IOException {
        return transcribe(vad, decoder, options, in, segment -> {});
    }

    /** As {@link #transcribe(VoiceActivityDetector, WindowDecoder, AsrOptions, AudioStream)}, each segment handed to {@code onSegment} once decoded. */
    public static Transcript transcribe(
            VoiceActivityDetector vad,
            WindowDecoder decoder,
            AsrOptions options,
            AudioStream in,
            Consumer<TranscriptSegment> onSegment)
            throws IOException {
        return transcribe(vad, decoder, options, in, onSegment, 1);
    }

    /** As above, up to {@code windowsInFlight} windows decoded at once (segments still handed over in order). */
    public static Transcript transcribe(
            VoiceActivityDetector vad,
            WindowDecoder decoder,
            AsrOptions options,
            AudioStream in,
            Consumer<TranscriptSegment> onSegment,
            int windowsInFlight)
            throws IOException {
        if (in.sampleRate() != WindowDecoder.SAMPLE_RATE) in.resampleTo(WindowDecoder.SAMPLE_RATE);
        try (LongFormTranscriber t = open(vad, decoder, options, windowsInFlight)) {
            List<TranscriptSegment> out = new ArrayList<>();
            float[] block = new float[1 << 16];
            for (int n; (n = in.read(block, 0, block.length)) >= 0; ) handOver(t.accept(block, 0, n), out, onSegment);
            handOver(t.finish(), out, onSegment);
            return t.transcript(out);
        }
    }

    private static void handOver(
            List<TranscriptSegment> decoded, List<TranscriptSegment> out, Consumer<TranscriptSegment> onSegment) {
        for (TranscriptSegment s : decoded) {
            out.add(s);
            onSegment.accept(s);
        }
    }

    /** Takes the next block of 16 kHz samples; returns the segments of the windows it settled, in order. */
    public List<TranscriptSegment> accept(float[] block, int from, int length) {
        ensureOpen();
        Objects.checkFromIndexSize(from, length, block.length);
        List<TranscriptSegment> out = new ArrayList<>();
        for (int i = from, end = from + length; i < end; i += PIECE) {
            int n = Math.min(PIECE, end - i);
            OfflineVad.Result r = vad.accept(block, i, n); // first: it refuses bad samples before anything is kept
            audio.append(block, i, n);
            samples += n;
            take(r, out);
        }
        return out;
    }

    /** The end of the audio: the detector settles its last segments and the last windows are decoded. */
    public List<TranscriptSegment> finish() {
        ensureOpen();
        finished = true;
        List<TranscriptSegment> out = new ArrayList<>();
        take(vad.finish(), out);
        for (SpeechSegment w : windows.finish()) decode(w, out);
        audio.discardBefore(samples);
        while (!inFlight.isEmpty()) out.add(await(inFlight.poll()));
        return out;
    }

    /** The transcript of {@code segments} (all that {@link #accept} and {@link #finish} returned) over the audio read. */
    public Transcript transcript(List<TranscriptSegment> segments) {
        long tokens = segments.stream().mapToLong(s -> s.tokens().size()).sum();
        return new Transcript(segments, samples / (double) WindowDecoder.SAMPLE_RATE, tokens);
    }

    /** Samples accepted so far. */
    public long samples() {
        return samples;
    }

    /** Samples kept for windows not decoded yet. */
    public int bufferedSamples() {
        return audio.size();
    }

    private void take(OfflineVad.Result r, List<TranscriptSegment> out) {
        for (float p : r.probabilities()) {
            probabilities.append(p);
            unreported.accept(p);
        }
        for (SpeechSegment s : r.segments()) {
            if (s.startSample() < audio.start() || s.endSample() > samples) {
                throw new IllegalStateException("the VAD reported speech at [" + s.startSample() + ", " + s.endSample()
                        + ") but the audio kept is [" + audio.start() + ", " + samples
                        + "): it does not segment by the rules its options name");
            }
            for (SpeechSegment w : windows.add(s)) decode(w, out);
            unreported.reported(s.endSample());
        }
        long nextStart = unreported.earliestStart();
        for (SpeechSegment w : windows.settleBefore(nextStart)) decode(w, out);
        long pending = windows.pendingStart();
        long keepFrom = Math.min(pending >= 0 ? pending : Long.MAX_VALUE, nextStart);
        audio.discardBefore(keepFrom);
        probabilities.discardBefore(keepFrom / chunk);
    }

    /**
     * Decodes a settled window: inline, or handed to a decoder thread with a copy of its audio (the ring may drop it
     * before the thread reads it). Whatever windows have come back, in order, go to {@code out}; with the most windows
     * in flight, the oldest is waited for.
     */
    private void decode(SpeechSegment w, List<TranscriptSegment> out) {
        if (windowsInFlight == 1) {
            out.add(decoder.decode(w.startSample(), w.endSample()));
            return;
        }
        if (decoding == null) {
            AtomicInteger n = new AtomicInteger();
            decoding = Executors.newFixedThreadPool(windowsInFlight, r -> {
                Thread t = new Thread(r, "audioengine-window-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        inFlight.add(decoding.submit(decoder.later(w.startSample(), w.endSample())));
        while (!inFlight.isEmpty() && (inFlight.peek().isDone() || inFlight.size() >= windowsInFlight))
            out.add(await(inFlight.poll()));
    }

    private static TranscriptSegment await(Future<TranscriptSegment> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("interrupted while a window was being decoded");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("this transcriber is closed");
        if (finished) throw new IllegalStateException("this transcriber is finished; open a new one for more audio");
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        if (decoding != null) {
            inFlight.forEach(f -> f.cancel(false));
            decoding.shutdown(); // a window already decoding finishes; its thread then ends
        }
        vad.close();
    }
}
