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
    /** The rate of the audio produced (Kokoro: 24 kHz). */
    int sampleRate();

    /** The voices this model has. */
    List<Voice> voices();

    /**
     * The name of the voice it speaks in when {@link SynthesisOptions#voice()} is null, for reports that say which voice
     * was heard; null when the model does not say.
     */
    default String defaultVoice() {
        return null;
    }

    /** The whole text as one recording (the pieces joined). Text with nothing speakable is an IllegalArgumentException. */
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

    /** The audio of each piece of the text, produced as the iterator is advanced. */
    Iterator<SpeechPiece> stream(Reader text, SynthesisOptions options);

    /**
     * A voice.
     *
     * @param name     what {@link SynthesisOptions#voice()} takes ({@code af_heart})
     * @param language BCP 47 tag of the language it speaks ({@code en-US})
     * @param gender   "female", "male" or "" when unknown
     */
    record Voice(String name, String language, String gender) {}

    /** One piece of the text and its audio. */
    record SpeechPiece(String text, String phonemes, float[] samples, int sampleRate) {
        public double seconds() {
            return samples.length / (double) sampleRate;
        }
    }

    /** A whole recording and the pieces it was made of. */
    record SpeechAudio(float[] samples, int sampleRate, List<SpeechPiece> pieces) {
        public double seconds() {
            return samples.length / (double) sampleRate;
        }
    }
}
