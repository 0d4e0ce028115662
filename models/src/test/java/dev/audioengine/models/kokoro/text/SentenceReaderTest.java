package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SentenceReaderTest {
    private static List<String> sentences(String text, int maxChars) throws IOException {
        SentenceReader r = new SentenceReader(new StringReader(text), maxChars);
        List<String> out = new ArrayList<>();
        for (SentenceReader.Sentence s; (s = r.next()) != null; ) out.add(s.text() + (s.endsParagraph() ? "¶" : ""));
        return out;
    }

    @Test
    void sentencesEndAtTheirMarksWithTheirClosingQuotes() throws IOException {
        assertThat(sentences("He said “Stop!” Then?! It ended… (Really.) Smith Jr., etc., went on.", 1000))
                .containsExactly(
                        "He said “Stop!”", " Then?!", " It ended…", " (Really.)", " Smith Jr., etc., went on.");
        assertThat(sentences("Dr. Smith met J. R. R. Tolkien in the U.S. The end", 1000))
                .containsExactly("Dr. Smith met J. R. R. Tolkien in the U.S.", " The end");
        assertThat(sentences("नमस्ते। आप कैसे हैं?", 1000)).containsExactly("नमस्ते।", " आप कैसे हैं?");
    }

    /** Abbreviations a number or a lower-case word follows stay inside their sentence; before a capital they may end it. */
    @Test
    void commonAbbreviationsStayInsideTheirSentence() throws IOException {
        assertThat(sentences("Call ext. 12. Then hang up.", 1000)).containsExactly("Call ext. 12.", " Then hang up.");
        assertThat(sentences("See Fig. 3 and vol. 2, p. 5. Due Jan. 5 at the Dept. of Health.", 1000))
                .containsExactly("See Fig. 3 and vol. 2, p. 5.", " Due Jan. 5 at the Dept. of Health.");
        assertThat(sentences("It costs approx. five dollars, tel. 555 0100.", 1000))
                .containsExactly("It costs approx. five dollars, tel. 555 0100.");
        assertThat(sentences("We met in Jan. The rest is history.", 1000))
                .containsExactly("We met in Jan.", " The rest is history.");
    }

    @Test
    void blankLinesEndParagraphs() throws IOException {
        assertThat(sentences("One.\n\nTwo\nstill two.\r\n\r\nThree", 1000))
                .containsExactly("One.¶", "Two\nstill two.¶", "Three");
    }

    @Test
    void aRunWithoutAnEndIsCutAtAClauseThenASpaceThenAnywhere() throws IOException {
        assertThat(sentences("aaaa bbbb, cccc dddd eeee", 20)).containsExactly("aaaa bbbb,", " cccc dddd eeee");
        assertThat(sentences("aaaa bbbb cccc dddd eeee ffff", 20)).containsExactly("aaaa bbbb cccc dddd", " eeee ffff");
        String emoji = "😀".repeat(30); // 60 chars of surrogate pairs: a cut never splits one
        List<String> parts = sentences(emoji, 21);
        assertThat(String.join("", parts)).isEqualTo(emoji);
        for (String p : parts)
            assertThat(p.codePoints().allMatch(c -> c == 0x1F600)).as(p).isTrue();
    }

    @Test
    void aTextOfExactlyTheLimitIsOneSentence() throws IOException {
        assertThat(sentences("x".repeat(20), 20)).containsExactly("x".repeat(20));
        assertThat(sentences("x".repeat(21), 20)).containsExactly("x".repeat(20), "x");
        assertThat(sentences("", 20)).isEmpty();
        assertThat(sentences(" \n\n \n", 20)).isEmpty();
    }
}
