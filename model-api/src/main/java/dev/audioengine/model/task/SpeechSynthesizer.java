package dev.audioengine.model.task;

import dev.audioengine.model.TaskModel;
import java.io.Reader;
import java.util.Iterator;
import java.util.List;

/**
 * A loaded speech synthesis model ({@code --task tts}). Thread-safe: concurrent callers each synthesize on state of
 * their own. Text is split into pieces the model can say at once (sentences, then clauses); {@link #stream} yields
 * the audio piece by piece as it is produced, so a long text streams in bounded memory and the first audio comes
 * after the first piece, not the whole text.
 */
public interface SpeechSynthesizer extends TaskModel {
    /**
     * The rate of the audio produced (Kokoro: 24 kHz).
     *
     * @return samples per second of every piece and recording
     */
    int sampleRate();

    /**
     * The voices this model has.
     *
     * @return every voice {@link SynthesisOptions#voice()} may name
     */
    List<Voice> voices();

    /**
     * The name of the voice it speaks in when {@link SynthesisOptions#voice()} is null, for reports that say which voice
     * was heard; null when the model does not say.
     *
     * @return a voice name, or null (the default)
     */
    default String defaultVoice() {
        return null;
    }

    /**
     * The whole text as one recording (the pieces joined). Text with nothing speakable is an IllegalArgumentException.
     *
     * @param text what to say; held in memory whole along with all of its audio (use {@link #stream} for long text)
     * @param options voice and speed
     * @return the recording and the pieces it was made of
     * @throws IllegalArgumentException if the voice is unknown or the text has nothing speakable
     * @throws dev.audioengine.model.MissingDependencyException if the voice's language needs system software that is
     *     not installed (Kokoro's espeak-ng)
     */
    default SpeechAudio synthesize(String text, SynthesisOptions options) {
        List<SpeechPiece> pieces = new java.util.ArrayList<>();
        stream(new java.io.StringReader(text), options).forEachRemaining(pieces::add);
        if (pieces.isEmpty())
            throw new IllegalArgumentException("the text has nothing to say: no speakable characters");
        int n = pieces.stream().mapToInt(p -> p.samples().length).sum();
        float[] all = new float[n];
        int at = 0;
        for (SpeechPiece p : pieces) {
            System.arraycopy(p.samples(), 0, all, at, p.samples().length);
            at += p.samples().length;
        }
        return new SpeechAudio(all, sampleRate(), pieces);
    }

    /**
     * The audio of each piece of the text, produced as the iterator is advanced.
     *
     * @param text read as the pieces are needed, not at once; the caller closes it after the iteration
     * @param options voice and speed; the voice is checked here, before any text is read
     * @return an iterator that synthesizes one piece per {@code next()}, on the calling thread; it has no next
     *     element when the text has nothing speakable
     * @throws IllegalArgumentException if the voice is unknown
     * @throws dev.audioengine.model.MissingDependencyException if the voice's language needs system software that is
     *     not installed
     */
    Iterator<SpeechPiece> stream(Reader text, SynthesisOptions options);

    /**
     * A voice.
     *
     * @param name     what {@link SynthesisOptions#voice()} takes ({@code af_heart})
     * @param language BCP 47 tag of the language it speaks ({@code en-US})
     * @param gender   "female", "male" or "" when unknown
     */
    record Voice(String name, String language, String gender) {}

    /**
     * One piece of the text and its audio.
     *
     * @param text the piece of the input text (a sentence or clause)
     * @param phonemes what the model was given to say for it, in the model's phoneme alphabet (IPA for Kokoro)
     * @param samples mono audio, nominally in [-1, 1]; the array is the record's own, not copied
     * @param sampleRate the rate of {@code samples}
     */
    record SpeechPiece(String text, String phonemes, float[] samples, int sampleRate) {
        /**
         * The piece's duration.
         *
         * @return seconds of audio
         */
        public double seconds() {
            return samples.length / (double) sampleRate;
        }
    }

    /**
     * A whole recording and the pieces it was made of.
     *
     * @param samples mono audio of every piece, joined without gaps; not copied
     * @param sampleRate the rate of {@code samples}
     * @param pieces the pieces in order (their samples are copies of stretches of {@code samples})
     */
    record SpeechAudio(float[] samples, int sampleRate, List<SpeechPiece> pieces) {
        /**
         * The recording's duration.
         *
         * @return seconds of audio
         */
        public double seconds() {
            return samples.length / (double) sampleRate;
        }
    }
}
