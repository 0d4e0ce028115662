package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Splitting text into pieces of at most 510 Kokoro phonemes, through Debian's espeak-ng 1.51. */
class TextChunkerTest {
    private static final KokoroPhonemizer US =
            KokoroPhonemizer.of(KokoroLanguage.AMERICAN_ENGLISH, ShippedVocabulary.VOCABULARY);
    private static final TextChunker CHUNKER = new TextChunker(US);

    private static List<TextPiece> pieces(TextChunker chunker, String text) {
        List<TextPiece> out = new ArrayList<>();
        chunker.pieces(text).forEachRemaining(out::add);
        return out;
    }

    private static String squash(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }

    @Test
    void aShortTextIsOnePieceWithThePhonemizersPhonemes() {
        String text = "  Hello, world! How are you?\nI am fine; thanks.  ";
        List<TextPiece> p = pieces(CHUNKER, text);
        assertThat(p).hasSize(1);
        assertThat(p.getFirst().text()).isEqualTo("Hello, world! How are you? I am fine; thanks.");
        assertThat(p.getFirst().phonemes().phonemes())
                .isEqualTo(US.phonemize(text).phonemes());
    }

    @Test
    void sentencesArePackedUpToTheLimitAndCutAtTheirEnds() {
        Random random = new Random(42);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 150; i++)
            text.append(GeneratedText.sentence(random, KokoroLanguage.AMERICAN_ENGLISH))
                    .append(' ');
        List<TextPiece> p = pieces(CHUNKER, text.toString());
        assertThat(p.size()).isGreaterThan(5);
        List<String> texts = new ArrayList<>();
        for (TextPiece piece : p) {
            String ps = piece.phonemes().phonemes();
            assertThat(piece.phonemes().length()).isLessThanOrEqualTo(510);
            assertThat(piece.phonemes().isSpeakable()).isTrue();
            // each piece ends where a sentence does, its mark with it, in the text and in the phonemes
            assertThat(piece.text()).matches("(?s).*[.!?…][”)\"]?");
            assertThat(ps).matches("(?s).*[.!?…][”)\"]?");
            texts.add(piece.text());
        }
        // nothing lost, nothing said twice; and every piece but the last is full enough that the next sentence did not
        // fit
        assertThat(squash(String.join(" ", texts))).isEqualTo(squash(text.toString()));
        for (int i = 0; i + 1 < p.size(); i++) {
            String next = firstSentence(p.get(i + 1).text());
            assertThat(p.get(i + 1).text()).startsWith(next);
            assertThat(p.get(i).phonemes().length() + 1 + US.phonemize(next).length())
                    .as("piece %d", i)
                    .isGreaterThan(510);
        }
    }

    /** The first sentence of a piece, as the chunker's reader finds it. */
    private static String firstSentence(String text) {
        try {
            return new SentenceReader(new java.io.StringReader(text), TextChunker.MAX_SENTENCE_CHARS)
                    .next()
                    .text()
                    .strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aSentenceTooLongIsCutAtItsSemicolonBeforeItsCommas() {
        String first = "The first half of this sentence runs on for a while, with a comma in its middle;";
        String second = "the second half follows it, and it also has a comma, or two, before it ends.";
        int limit = Math.max(US.phonemize(first).length(), US.phonemize(second).length());
        assertThat(US.phonemize(first + " " + second).length()).isGreaterThan(limit);
        List<TextPiece> p = pieces(new TextChunker(US, limit), first + " " + second);
        assertThat(p).extracting(TextPiece::text).containsExactly(first, second);
        assertThat(p.get(0).phonemes().phonemes()).endsWith(";");
    }

    @Test
    void aClauseTooLongIsCutAtItsWords() {
        String text =
                "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen";
        List<TextPiece> p = pieces(new TextChunker(US, 40), text);
        assertThat(p.size()).isGreaterThan(2);
        for (TextPiece piece : p) assertThat(piece.phonemes().length()).isLessThanOrEqualTo(40);
        assertThat(String.join(" ", p.stream().map(TextPiece::text).toList())).isEqualTo(text);
    }

    @Test
    void aWordTooLongIsCutInHalves() {
        String digits = "1234567890".repeat(100);
        String letters = "abcdefghij".repeat(300);
        for (String text : List.of(digits, letters)) {
            List<TextPiece> p = pieces(CHUNKER, text);
            assertThat(p.size()).isGreaterThan(1);
            for (TextPiece piece : p) assertThat(piece.phonemes().length()).isLessThanOrEqualTo(510);
            assertThat(String.join("", p.stream().map(TextPiece::text).toList()))
                    .isEqualTo(text);
        }
    }

    @Test
    void aBlankLineEndsAPieceAndALineBreakDoesNot() {
        assertThat(pieces(CHUNKER, "One.\n\nTwo.\r\n \r\nThree"))
                .extracting(TextPiece::text)
                .containsExactly("One.", "Two.", "Three");
        assertThat(pieces(CHUNKER, "A line wrapped\nin the middle."))
                .extracting(TextPiece::text)
                .containsExactly("A line wrapped\nin the middle.");
    }

    @Test
    void abbreviationsAndNumbersDoNotEndSentences() {
        String first = "Dr. Smith Jr., who paid $3.50 in the U.S. army, met Sra. García.", second = "Then he left.";
        int limit = US.phonemize(first).length() + 2; // room for the first sentence, not for both
        List<TextPiece> p = pieces(new TextChunker(US, limit), first + " " + second);
        assertThat(p).extracting(TextPiece::text).containsExactly(first, second);
        assertThat(p.getFirst().phonemes().phonemes())
                .isEqualTo(US.phonemize(first).phonemes());
    }

    @Test
    void nothingSpeakableGivesNoPieces() {
        for (String text : List.of("", "   \n\n  \t", "... ?! — ( )", "\u0000\u0001")) {
            Iterator<TextPiece> it = CHUNKER.pieces(text);
            assertThat(it.hasNext()).as("%s", text).isFalse();
            assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
        }
    }

    @Test
    void aFailingReaderFailsTheIteratorUnchecked() {
        Reader broken = new Reader() {
            @Override
            public int read(char[] b, int off, int len) throws IOException {
                throw new IOException("disk gone");
            }

            @Override
            public void close() {}
        };
        assertThatThrownBy(() -> CHUNKER.pieces(broken).hasNext())
                .isInstanceOf(UncheckedIOException.class)
                .hasRootCauseMessage("disk gone");
    }

    /** 100 kB read lazily: the chunker holds a sentence and a read-ahead, never the text; every piece fits. */
    @Test
    void aHundredKilobytesStreamPieceByPieceInBoundedMemory() {
        GeneratedReader reader = new GeneratedReader(100_000);
        Iterator<TextPiece> it = CHUNKER.pieces(reader);
        long emitted = 0;
        int pieces = 0;
        long mostHeld = 0;
        StringBuilder said = new StringBuilder();
        while (it.hasNext()) {
            TextPiece piece = it.next();
            pieces++;
            assertThat(piece.phonemes().length()).isLessThanOrEqualTo(510);
            emitted += piece.text()
                    .codePoints()
                    .filter(c -> !Character.isWhitespace(c))
                    .count();
            mostHeld = Math.max(mostHeld, reader.nonSpaceDelivered - emitted);
            said.append(piece.text()).append(' ');
        }
        assertThat(reader.delivered).isGreaterThanOrEqualTo(100_000);
        assertThat(pieces).isGreaterThan(100);
        assertThat(mostHeld)
                .as("characters read but not yet given out")
                .isLessThan(TextChunker.MAX_SENTENCE_CHARS + 4096 + 512);
        assertThat(squash(said.toString())).isEqualTo(squash(reader.all.toString()));
    }

    /** 30 kB of random code points (controls, lone surrogates, emoji, marks, digits): pieces, never an exception. */
    @Test
    void garbageNeverThrows() {
        Random random = new Random(3);
        StringBuilder b = new StringBuilder();
        String marks = ".,;:!?—…\"()“”-'$%&*@#/\\ \n";
        while (b.length() < 30_000) { // espeak loads a dictionary for each script it meets, so this is slow per kB
            int kind = random.nextInt(6);
            if (kind == 0) b.append((char) random.nextInt(0x10000)); // any BMP unit, lone surrogates too
            else if (kind == 1) b.appendCodePoint(0x1F300 + random.nextInt(0x300)); // emoji
            else if (kind == 2) b.append(marks.charAt(random.nextInt(marks.length())));
            else if (kind == 3) b.append(random.nextInt(100_000));
            else b.append((char) ('a' + random.nextInt(26)));
        }
        Iterator<TextPiece> it = CHUNKER.pieces(b.toString());
        int n = 0;
        while (it.hasNext()) {
            TextPiece piece = it.next();
            assertThat(piece.phonemes().length()).isLessThanOrEqualTo(510);
            KokoroPhonemizerTest.assertAllInVocabulary(piece.phonemes());
            n++;
        }
        assertThat(n).isPositive();
    }

    /** Generated English sentences, handed out as asked for and kept (for the test's comparison only). */
    private static final class GeneratedReader extends Reader {
        private final Random random = new Random(11);
        private final long size;
        final StringBuilder all = new StringBuilder();
        private String pending = "";
        long delivered, nonSpaceDelivered;

        GeneratedReader(long size) {
            this.size = size;
        }

        @Override
        public int read(char[] b, int off, int len) {
            if (pending.isEmpty()) {
                if (delivered >= size) return -1;
                pending = GeneratedText.sentence(random, KokoroLanguage.AMERICAN_ENGLISH)
                        + (random.nextInt(8) == 0 ? "\n\n" : " ");
                all.append(pending);
            }
            int n = Math.min(len, pending.length());
            pending.getChars(0, n, b, off);
            for (int i = 0; i < n; i++) if (!Character.isWhitespace(b[off + i])) nonSpaceDelivered++;
            pending = pending.substring(n);
            delivered += n;
            return n;
        }

        @Override
        public void close() {}
    }
}
