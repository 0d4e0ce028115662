package dev.audioengine.models.kokoro.text;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Splits text into pieces Kokoro can say in one go: whole sentences packed while their phonemes fit, a sentence too
 * long for one piece cut at its clauses ({@code ; :} first, then {@code , —}), then at its words, and a word still too
 * long (a run of digits, say) in halves, as kokoro's pipeline falls back from sentence to clause marks. Each piece keeps
 * the punctuation that ends it, and a blank line always ends a piece. The text is read as the pieces are asked for,
 * a sentence at a time, so memory stays bounded whatever its length.
 *
 * <p>Empty or unspeakable text gives no pieces at all, which the caller reports. Thread-safe; each iterator is for one
 * thread, and a Reader's IOException comes out of it as an UncheckedIOException.
 */
public final class TextChunker {
    /** A run of text with no sentence end is cut at about this many characters (at a clause mark or a space). */
    static final int MAX_SENTENCE_CHARS = 1000;

    private final KokoroPhonemizer phonemizer;
    private final int maxPhonemes;

    public TextChunker(KokoroPhonemizer phonemizer) {
        this(phonemizer, KokoroVocabulary.MAX_PHONEMES);
    }

    /** A chunker whose pieces have at most {@code maxPhonemes} symbols (at least 32; Kokoro takes 510). */
    public TextChunker(KokoroPhonemizer phonemizer, int maxPhonemes) {
        if (maxPhonemes < 32 || maxPhonemes > KokoroVocabulary.MAX_PHONEMES) {
            throw new IllegalArgumentException(
                    "maxPhonemes " + maxPhonemes + " is outside 32.." + KokoroVocabulary.MAX_PHONEMES);
        }
        this.phonemizer = phonemizer;
        this.maxPhonemes = maxPhonemes;
    }

    public int maxPhonemes() {
        return maxPhonemes;
    }

    public Iterator<TextPiece> pieces(String text) {
        return pieces(new StringReader(text));
    }

    /** The pieces of a text read from {@code text}, which the caller closes. */
    public Iterator<TextPiece> pieces(Reader text) {
        return new Pieces(new SentenceReader(text, MAX_SENTENCE_CHARS));
    }

    private final class Pieces implements Iterator<TextPiece> {
        private final SentenceReader sentences;
        private final ArrayDeque<TextPiece> ready = new ArrayDeque<>();
        private final StringBuilder text = new StringBuilder();
        private final StringBuilder phonemes = new StringBuilder();
        private final Map<String, Integer> dropped = new HashMap<>();
        private int length;
        private boolean done;

        Pieces(SentenceReader sentences) {
            this.sentences = sentences;
        }

        @Override
        public boolean hasNext() {
            while (ready.isEmpty() && !done) {
                SentenceReader.Sentence s;
                try {
                    s = sentences.next();
                } catch (IOException e) {
                    throw new UncheckedIOException("reading the text to split", e);
                }
                if (s == null) {
                    flush();
                    done = true;
                } else {
                    add(s.text(), 0);
                    if (s.endsParagraph()) flush();
                }
            }
            return !ready.isEmpty();
        }

        @Override
        public TextPiece next() {
            if (!hasNext()) throw new NoSuchElementException();
            return ready.poll();
        }

        /** Packs one unit of text, split at {@code level} (0 clauses, 1 minor clauses, 2 words, 3 halves) when too long. */
        private void add(String unit, int level) {
            Phonemes p = phonemizer.phonemize(unit);
            if (!p.isSpeakable() || p.length() <= maxPhonemes) {
                // counted once, here: a unit that is split is counted in its parts
                p.dropped().forEach((k, v) -> dropped.merge(k, v, Integer::sum));
                if (p.isSpeakable()) pack(unit.strip(), p);
                return;
            }
            if (level >= 3
                    && unit.codePointCount(0, unit.length())
                            <= 1) { // no symbol of text says 510 phonemes; kept as a guard
                pack(
                        unit.strip(),
                        new Phonemes(
                                p.phonemes().substring(0, p.phonemes().offsetByCodePoints(0, maxPhonemes)), Map.of()));
                return;
            }
            for (String part : split(unit, level)) {
                if (!part.isBlank()) add(part, Math.min(level + 1, 3));
            }
        }

        private void pack(String unit, Phonemes p) {
            if (length > 0 && length + 1 + p.length() > maxPhonemes) flush();
            if (length > 0) {
                text.append(' ');
                phonemes.append(' ');
                length++;
            }
            text.append(unit);
            phonemes.append(p.phonemes());
            length += p.length();
        }

        private void flush() {
            if (length > 0) ready.add(new TextPiece(text.toString(), new Phonemes(phonemes.toString(), dropped)));
            text.setLength(0);
            phonemes.setLength(0);
            dropped.clear();
            length = 0;
        }
    }

    /** {@code unit} cut after its clause marks of a rank (levels 0, 1), at its spaces (2) or in half (3). */
    static List<String> split(String unit, int level) {
        List<String> parts = new ArrayList<>();
        if (level <= 1) {
            int rank = level + 1, from = 0;
            for (int i = 0; i < unit.length(); i++) {
                if (Punctuation.clauseRank(unit.charAt(i)) == rank && Punctuation.isBoundary(unit, i)) {
                    int end = i + 1;
                    while (end < unit.length() && Punctuation.closes(unit.charAt(end))) end++;
                    parts.add(unit.substring(from, end));
                    from = end;
                    i = end - 1;
                }
            }
            parts.add(unit.substring(from));
            return parts.size() > 1 ? parts : split(unit, level + 1);
        }
        if (level == 2) {
            String[] words = unit.strip().split("\\s+");
            if (words.length > 1) return List.of(words);
        }
        int half = unit.offsetByCodePoints(0, Math.max(1, unit.codePointCount(0, unit.length()) / 2));
        return List.of(unit.substring(0, half), unit.substring(half));
    }
}
