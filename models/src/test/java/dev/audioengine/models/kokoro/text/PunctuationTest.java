package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PunctuationTest {
    /** The marks of {@code text} that separate speech, as a string; '#' in the text stands for a line break. */
    private static String boundaries(String text) {
        String s = text.replace('#', '\n');
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            if (Punctuation.isMark(s.charAt(i)) && Punctuation.isBoundary(s, i)) b.append(s.charAt(i));
        }
        return b.toString();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "Pi is 3.14, not 1,234 or 10:30.|,.",
                "He lives in the U.S. army base.|.",
                "He lives in the U.S. The end.|..",
                "in the U.S.|.",
                "(in the U.S.) yes|(.)",
                "J. R. R. Tolkien wrote it.|.",
                "e.g. Paris, i.e. France.|,.",
                "at 10 a.m. and 5 p.m. Then|.",
                "at 10 a.m. ## then home|.",
                "Visit example.com today!|!",
                "Wait… what?! “Yes” (no) \"ok\"; fine: done — gone.|…?!“”()\"\";:—.",
                "Plan B. Then more.|.",
                "He said so.|."
            })
    void onlyMarksThatSeparateSpeechAreBoundaries(String text, String expected) {
        assertThat(boundaries(text)).isEqualTo(expected == null ? "" : expected);
    }

    @Test
    void canonicalizeBringsTypographyOntoKokorosMarks() {
        assertThat(Punctuation.canonicalize("“Don’t” «oui» [a] {b} ¿Qué? ¡Sí! wait... a--b a - b 5-10 x―y"))
                .isEqualTo("“Don't” “oui” (a) (b) Qué? Sí! wait… a—b a — b 5-10 x—y");
        assertThat(Punctuation.canonicalize("a\r\nb\rc\td\u00A0e\u0000f")).isEqualTo("a\nb\nc d e f");
        assertThat(Punctuation.canonicalize("你好，世界。好吗？ मेरा नाम राम है।")).isEqualTo("你好, 世界. 好吗?  मेरा नाम राम है. ");
        assertThat(Punctuation.canonicalize("e\u0301")).isEqualTo("é"); // NFC
    }
}
