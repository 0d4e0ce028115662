package dev.audioengine.models.kokoro.text;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A phoneme string in Kokoro's symbols, and what was dropped on the way because Kokoro has no symbol for it (each
 * dropped symbol, as espeak wrote it after the mapping, with how often), so a caller can report it.
 *
 * @param phonemes Kokoro symbols only: phonemes, stress marks, punctuation and single spaces
 * @param dropped  symbol to count, in code point order; empty when nothing was dropped
 */
public record Phonemes(String phonemes, Map<String, Integer> dropped) {
    public Phonemes {
        dropped = Collections.unmodifiableMap(new TreeMap<>(dropped));
    }

    /** The number of symbols, which Kokoro limits to 510 an utterance. */
    public int length() {
        return phonemes.codePointCount(0, phonemes.length());
    }

    /** How many symbols were dropped in all. */
    public int droppedCount() {
        return dropped.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Whether there is anything to say: a symbol other than punctuation and spaces. */
    public boolean isSpeakable() {
        return phonemes.codePoints().anyMatch(c -> c != ' ' && !Punctuation.isMark(c));
    }
}
