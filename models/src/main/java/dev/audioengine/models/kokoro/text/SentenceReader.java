package dev.audioengine.models.kokoro.text;

import java.io.IOException;
import java.io.Reader;

/**
 * Reads a text a sentence at a time, holding at most {@code maxChars} of it plus one read ahead: a sentence ends at a
 * boundary {@code . ! ? …} (with the quotes and brackets closing right after it) or at a blank line; a run longer than
 * {@code maxChars} without either is cut at its last clause mark, else its last space, else anywhere but inside a
 * surrogate pair. Sentences come out as in the text, text only (no {@link Punctuation#canonicalize} applied), so
 * the caller's pieces quote the text as written. Not thread-safe.
 */
final class SentenceReader {
    /** Enough to see past the whitespace after a "." to the letter that tells an initialism from a sentence end. */
    private static final int LOOKAHEAD = 256;

    private static final int READ = 4096;

    /** A sentence, and whether a blank line follows it (a paragraph ends). */
    record Sentence(String text, boolean endsParagraph) {}

    private final Reader in;
    private final int maxChars;
    private final StringBuilder buf = new StringBuilder();
    private final char[] chunk = new char[READ];
    private int scan;
    private boolean eof;

    SentenceReader(Reader in, int maxChars) {
        if (maxChars < 16) throw new IllegalArgumentException("maxChars " + maxChars + " < 16");
        this.in = in;
        this.maxChars = maxChars;
    }

    /** The next sentence, or null at the end of the text; blank sentences are skipped. */
    Sentence next() throws IOException {
        while (true) {
            Sentence s = cut();
            if (s == null) return null;
            if (!s.text().isBlank()) return s;
        }
    }

    private Sentence cut() throws IOException {
        while (true) {
            fill(scan + LOOKAHEAD);
            if (scan >= buf.length()) {
                if (buf.isEmpty()) return null;
                return take(buf.length(), buf.length(), false);
            }
            char c = buf.charAt(scan);
            if (c == '\n') {
                int after = Punctuation.nextNonSpace(buf, scan + 1);
                if (buf.substring(scan + 1, after).indexOf('\n') >= 0 || after == buf.length() && eof)
                    return take(scan, after, true);
            } else if (Punctuation.endsSentenceAsWritten(c) && Punctuation.isBoundary(buf, scan)) {
                int end = scan + 1;
                while (end < buf.length()
                        && (Punctuation.endsSentenceAsWritten(buf.charAt(end)) || Punctuation.closes(buf.charAt(end))))
                    end++;
                // "Jr.," or "etc.;" go on: a sentence ends before whitespace or the end (CJK full stops need no space)
                if (end == buf.length() || Character.isWhitespace(buf.charAt(end)) || !Punctuation.endsSentence(c)) {
                    int after = Punctuation.nextNonSpace(buf, end);
                    return take(
                            end,
                            end,
                            buf.substring(end, after)
                                            .chars()
                                            .filter(ch -> ch == '\n')
                                            .count()
                                    >= 2);
                }
            }
            scan++;
            if (scan >= maxChars) {
                fill(scan + 1);
                if (scan < buf.length())
                    return take(forcedCut(), -1, false); // else the text ends here, as a whole sentence
            }
        }
    }

    /** Where to cut a run with no sentence end: after its last clause mark, else at its last space. */
    private int forcedCut() {
        for (int rank = 1; rank <= 2; rank++) {
            for (int i = scan - 1; i > 0; i--) {
                if (Punctuation.clauseRank(buf.charAt(i)) == rank && Punctuation.isBoundary(buf, i)) return i + 1;
            }
        }
        for (int i = scan - 1; i > 0; i--) if (Character.isWhitespace(buf.charAt(i))) return i;
        return Character.isLowSurrogate(buf.charAt(scan)) ? scan - 1 : scan;
    }

    /** Returns {@code buf[0, end)} and drops {@code buf[0, resume)} ({@code end} when resume is -1). */
    private Sentence take(int end, int resume, boolean paragraph) {
        String text = buf.substring(0, end);
        buf.delete(0, resume < 0 ? end : resume);
        scan = 0;
        return new Sentence(text, paragraph);
    }

    private void fill(int want) throws IOException {
        while (!eof && buf.length() < want) {
            int n = in.read(chunk);
            if (n < 0) eof = true;
            else buf.append(chunk, 0, n);
        }
    }
}
