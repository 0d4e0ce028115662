package dev.audioengine.models.asr;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
    private final SpeechWindows windows;
    private final UnreportedSpeechBound unreported;
    private long samples;
    private boolean finished, closed;

    /**
     * @param vad       a fresh session at {@link WindowDecoder#SAMPLE_RATE}, opened with {@code options.vad()}; this transcriber owns it
     * @param chunkSize the detector's samples per probability
     */
    public LongFormTranscriber(OfflineVad vad, int chunkSize, WindowDecoder decoder, AsrOptions options) {
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
        return new LongFormTranscriber(
                vad.offline(WindowDecoder.SAMPLE_RATE, options.vad()),
                vad.chunkSize(WindowDecoder.SAMPLE_RATE),
                decoder,
                options);
    }

    /** Transcribes 16 kHz samples. */
    public static Transcript transcribe(
            VoiceActivityDetector vad, WindowDecoder decoder, AsrOptions options, float[] samples) {
        try (LongFormTranscriber t = open(vad, decoder, options)) {
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
        if (in.sampleRate() != WindowDecoder.SAMPLE_RATE) in.resampleTo(WindowDecoder.SAMPLE_RATE);
        try (LongFormTranscriber t = open(vad, decoder, options)) {
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
        for (SpeechSegment w : windows.finish()) out.add(decoder.decode(w.startSample(), w.endSample()));
        audio.discardBefore(samples);
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
            for (SpeechSegment w : windows.add(s)) out.add(decoder.decode(w.startSample(), w.endSample()));
            unreported.reported(s.endSample());
        }
        long nextStart = unreported.earliestStart();
        for (SpeechSegment w : windows.settleBefore(nextStart)) out.add(decoder.decode(w.startSample(), w.endSample()));
        long pending = windows.pendingStart();
        long keepFrom = Math.min(pending >= 0 ? pending : Long.MAX_VALUE, nextStart);
        audio.discardBefore(keepFrom);
        probabilities.discardBefore(keepFrom / chunk);
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("this transcriber is closed");
        if (finished) throw new IllegalStateException("this transcriber is finished; open a new one for more audio");
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        vad.close();
    }
}
