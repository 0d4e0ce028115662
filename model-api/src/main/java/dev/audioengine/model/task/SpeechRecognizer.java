package dev.audioengine.model.task;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.TaskModel;
import java.io.IOException;
import java.nio.file.Path;
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
}
