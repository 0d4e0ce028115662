package dev.audioengine.model.task;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.TaskModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A loaded audio-to-notes model ({@code --task notes}): per-frame activations of which pitches sound and start, and
 * the notes decoded from them (start, end, MIDI pitch, amplitude). Thread-safe: one transcriber may serve concurrent
 * callers; runs on one engine take turns.
 */
public interface NoteTranscriber extends TaskModel {
    /**
     * The one sample rate the model runs at; audio at another rate is resampled by the caller (or by
     * {@link #transcribe(Path, NoteOptions)}).
     *
     * @return samples per second (Basic Pitch: 22050)
     */
    int sampleRate();

    /**
     * The model's activations over the whole audio.
     *
     * @param samples    mono audio in [-1, 1]; not kept
     * @param sampleRate its rate, which must be {@link #sampleRate()}
     * @return one row per output frame
     * @throws IllegalArgumentException when the rate is not the model's or a sample is NaN or infinite
     */
    NoteActivations activations(float[] samples, int sampleRate);

    /**
     * Decodes notes from activations (the model's own post-processing).
     *
     * @param activations what {@link #activations} returned (or the same shapes from elsewhere); not modified
     * @param options     thresholds and the rest
     * @return the notes, in the order the decoding finds them (not sorted)
     */
    List<NoteEvent> notes(NoteActivations activations, NoteOptions options);

    /**
     * The notes in the audio: {@link #activations} then {@link #notes}.
     *
     * @param samples    mono audio in [-1, 1]
     * @param sampleRate its rate, which must be {@link #sampleRate()}
     * @param options    thresholds and the rest
     * @return the notes, in the order the decoding finds them
     * @throws IllegalArgumentException when the rate is not the model's or a sample is not finite
     */
    default List<NoteEvent> transcribe(float[] samples, int sampleRate, NoteOptions options) {
        return notes(activations(samples, sampleRate), options);
    }

    /**
     * The notes in an audio file (any format the audio module reads; several channels are mixed to mono), resampled
     * to {@link #sampleRate()} when it has another rate.
     *
     * @param audioFile the file to read
     * @param options   thresholds and the rest
     * @return the notes, in the order the decoding finds them
     * @throws IOException              when the file cannot be read or decoded
     * @throws IllegalArgumentException when a sample is not finite
     */
    default List<NoteEvent> transcribe(Path audioFile, NoteOptions options) throws IOException {
        return transcribe(readAudio(audioFile, sampleRate()), sampleRate(), options);
    }

    /**
     * A whole file as mono samples at {@code rate}.
     *
     * @param audioFile the file to read
     * @param rate      the rate wanted
     * @return the samples
     * @throws IOException when the file cannot be read or decoded
     */
    static float[] readAudio(Path audioFile, int rate) throws IOException {
        try (AudioStream in = AudioStream.open(audioFile)) {
            if (in.sourceRate() != rate) in.resampleTo(rate);
            return in.readAll().samples();
        }
    }
}
