package dev.audioengine.models.asr;

import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.TranscriptEvent;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VadStream;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Live transcription as Moonshine's demo does it: the audio goes through a streaming voice activity detector; while
 * a segment is open (its START reported, no END yet) the segment so far is decoded again after every
 * {@link AsrOptions#partialEverySeconds()} of new audio and reported as a {@link TranscriptEvent.Partial}; at its END,
 * or when it reaches {@link AsrOptions#maxWindowSeconds()} (cut there, the rest going on as a new segment at once), it
 * is decoded once more and reported as {@link TranscriptEvent.Final}. A Partial is always followed by a Final of
 * the same start (an empty one when a cut left nothing before the END). Times are sample positions in the stream.
 * <p>
 * Memory: the open segment's audio (at most a window); when none is open, the audio from where a START not yet
 * reported can point to: the bound the chunk probabilities give ({@link UnreportedSpeechBound}: speech-pad before
 * speech that may still become a segment), or with max-speech the {@link #startLookback} if that is later.
 * <p>
 * Not thread-safe: one per audio source. Closing it closes the VAD stream.
 */
public final class LiveTranscription implements AsrStream {
    /** Blocks go to the detector in pieces of at most this many samples, so a huge block is neither kept whole nor cut late. */
    private static final int PIECE = 1 << 12;

    private final VadStream vad;
    private final FloatRing audio = new FloatRing();
    private final RingWindowDecoder decoder;
    private final UnreportedSpeechBound
            unstarted; // fed END events as reports: where a segment not STARTed yet can begin
    private final long maxSamples, partialSamples, lookback;
    private long position; // samples accepted
    private long openStart = -1; // where the open segment (after any cuts) starts; -1: none open
    private long lastPartialAt; // the position of the open segment's last Partial, or its start
    private boolean partialOut; // a Partial of the open segment is out: a Final must follow
    private long decodedUpTo; // the end of the last Final: no later segment starts before it
    private boolean finished, closed;

    /**
     * @param vad a fresh stream at {@link WindowDecoder#SAMPLE_RATE}, opened with {@code options.vad()}; this transcription owns it
     */
    public LiveTranscription(VadStream vad, WindowDecoder decoder, AsrOptions options) {
        if (vad.sampleRate() != WindowDecoder.SAMPLE_RATE) {
            throw new IllegalArgumentException("the VAD stream runs at " + vad.sampleRate()
                    + " Hz; windows are decoded at " + WindowDecoder.SAMPLE_RATE + " Hz");
        }
        this.vad = vad;
        this.decoder = new RingWindowDecoder(audio, decoder);
        this.maxSamples = (long) Math.floor(options.maxWindowSeconds() * WindowDecoder.SAMPLE_RATE);
        this.partialSamples = Math.max(1, Math.round(options.partialEverySeconds() * WindowDecoder.SAMPLE_RATE));
        this.lookback = startLookback(options.vad(), vad.chunkSize());
        this.unstarted = new UnreportedSpeechBound(options.vad(), vad.chunkSize(), WindowDecoder.SAMPLE_RATE);
    }

    /** A live transcription on a new stream of {@code vad}. */
    public static LiveTranscription open(VoiceActivityDetector vad, WindowDecoder decoder, AsrOptions options) {
        return new LiveTranscription(vad.stream(WindowDecoder.SAMPLE_RATE, options.vad()), decoder, options);
    }

    /**
     * How far a START can point back from the end of the chunk whose probability made the detector report it, by
     * Silero's rules with max-speech: the segment being tracked is split (and so reported) once it lasts max-speech
     * (checked from the chunk after its first), and its START sample is at most speech-pad before its start. Without
     * max-speech there is no such limit (probabilities between the thresholds can hold a START back for as long as
     * they last), and this is {@link Long#MAX_VALUE}.
     */
    public static long startLookback(VadOptions o, int chunkSize) {
        if (Double.isInfinite(o.maxSpeechS())) return Long.MAX_VALUE;
        double rate = WindowDecoder.SAMPLE_RATE;
        return (long) Math.ceil(rate * o.maxSpeechS())
                + (long) Math.ceil(rate * o.speechPadMs() / 1000)
                + 2L * chunkSize;
    }

    @Override
    public List<TranscriptEvent> accept(float[] samples, int from, int length) {
        ensureOpen();
        Objects.checkFromIndexSize(from, length, samples.length);
        List<TranscriptEvent> out = new ArrayList<>();
        for (int i = from, end = from + length; i < end; i += PIECE) {
            int n = Math.min(PIECE, end - i);
            float[] piece = Arrays.copyOfRange(samples, i, i + n);
            VadStream.Result r = vad.accept(piece); // first: it refuses bad samples before anything is kept
            audio.append(piece, 0, n);
            position += n;
            take(r, out);
        }
        if (openStart >= 0
                && position > openStart
                && position - lastPartialAt >= partialSamples) { // one per call: earlier ones would be stale at once
            out.add(new TranscriptEvent.Partial(decoder.decode(openStart, position)));
            lastPartialAt = position;
            partialOut = true;
        }
        return out;
    }

    /** The end of the audio: the detector closes a segment still open, and it is reported. */
    @Override
    public List<TranscriptEvent> finish() {
        ensureOpen();
        finished = true;
        List<TranscriptEvent> out = new ArrayList<>();
        take(vad.finish(), out);
        if (openStart >= 0) end(position, out); // a detector that left it open: it ends with the audio
        audio.discardBefore(position);
        return out;
    }

    /** Samples accepted so far. */
    public long samples() {
        return position;
    }

    /** Samples kept: the open segment, or what a START not reported yet may still need. */
    public int bufferedSamples() {
        return audio.size();
    }

    private void take(VadStream.Result r, List<TranscriptEvent> out) {
        for (float p : r.probabilities()) unstarted.accept(p);
        for (SpeechEvent e : r.events()) {
            if (e.sample() > position)
                throw new IllegalStateException(
                        "the VAD reported " + e + " beyond the " + position + " samples accepted");
            if (e.kind() == SpeechEvent.Kind.START) start(e.sample());
            else end(e.sample(), out);
        }
        cut(position, out);
        audio.discardBefore(openStart >= 0 ? openStart : Math.max(unstarted.earliestStart(), position - lookback));
    }

    private void start(long sample) {
        if (openStart >= 0)
            throw new IllegalStateException(
                    "the VAD reported a START at " + sample + " while the segment from " + openStart + " is open");
        long from = Math.max(
                sample,
                decodedUpTo); // after a cut at the window limit, the VAD's segment may begin in audio already final
        if (from < audio.start()) {
            throw new IllegalStateException("the VAD reported a START at " + sample + ", before the audio kept (from "
                    + audio.start() + "): it does not segment by the rules its options name");
        }
        openStart = lastPartialAt = from;
        partialOut = false;
    }

    private void end(long sample, List<TranscriptEvent> out) {
        if (openStart < 0)
            throw new IllegalStateException("the VAD reported an END at " + sample + " with no segment open");
        unstarted.reported(sample);
        cut(sample, out);
        if (sample > openStart) {
            decodeFinal(openStart, sample, out);
        } else if (partialOut) { // a cut took everything before the END: close what the Partial opened
            out.add(new TranscriptEvent.Final(
                    new TranscriptSegment(openStart, openStart, WindowDecoder.SAMPLE_RATE, "", List.of())));
        }
        openStart = -1;
        partialOut = false;
    }

    /** Cuts the open segment into full windows while it reaches past {@code limit}. */
    private void cut(long limit, List<TranscriptEvent> out) {
        while (openStart >= 0 && limit - openStart > maxSamples) {
            decodeFinal(openStart, openStart + maxSamples, out);
            openStart = lastPartialAt = openStart + maxSamples;
            partialOut = false;
        }
    }

    private void decodeFinal(long from, long to, List<TranscriptEvent> out) {
        out.add(new TranscriptEvent.Final(decoder.decode(from, to)));
        decodedUpTo = to;
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("this live transcription is closed");
        if (finished)
            throw new IllegalStateException("this live transcription is finished; open a new one for more audio");
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        vad.close();
    }
}
