package dev.audioengine.models.kokoro.text;

import java.text.Normalizer;
import java.util.Set;

/**
 * Kokoro's punctuation symbols, how a text's punctuation is brought onto them, and which of its marks separate
 * speech: the "." of "3.5", "U.S. army", "Dr. Smith" or "J. R. R. Tolkien" belongs to its word and is left to espeak,
 * which reads it; the "." of "in the U.S. The" ends a sentence. {@link KokoroPhonemizer} and {@link TextChunker} both
 * ask here, so a piece boundary never falls where the phonemizer would not put a mark. Stateless and thread-safe.
 */
final class Punctuation {
    private Punctuation() {}

    /** Kokoro's punctuation symbols. */
    static final String MARKS = ";:,.!?—…\"()“”";

    static boolean isMark(int c) {
        return c < 0x10000 && MARKS.indexOf(c) >= 0;
    }

    /** Marks that end a sentence (kokoro's pipeline cuts there first). */
    static boolean endsSentence(int c) {
        return c == '.' || c == '!' || c == '?' || c == '…';
    }

    /** Marks that end a clause, the next place to cut: first ";" and ":", then "," and "—". */
    static int clauseRank(int c) {
        return c == ';' || c == ':' ? 1 : c == ',' || c == '—' ? 2 : 0;
    }

    /** Sentence ends as a text may write them, before {@link #canonicalize}: Kokoro's, CJK full stops, the danda. */
    static boolean endsSentenceAsWritten(int c) {
        return endsSentence(c) || c == '。' || c == '！' || c == '？' || c == '।' || c == '॥';
    }

    /** Marks that close what came before and so stay with it: quotes and brackets, as written or canonical. */
    static boolean closes(int c) {
        return c == '"' || c == '”' || c == ')' || c == '\'' || c == '’' || c == '»' || c == ']' || c == '}';
    }

    /**
     * The text in NFC with its typographic variants brought onto Kokoro's marks: curly single quotes to ', guillemets to
     * curly double quotes, square and curly brackets to parentheses, "..." to …, dashes between words to —, full-width
     * CJK punctuation to its ASCII form and the Devanagari danda to "."; ¡ and ¿ are dropped (Kokoro has no symbol; the
     * closing mark carries the intonation). Line breaks are kept (a blank line ends a paragraph), other whitespace and
     * controls become spaces.
     */
    static String canonicalize(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFC);
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\r' -> {
                    b.append('\n');
                    if (i + 1 < s.length() && s.charAt(i + 1) == '\n') i++;
                }
                case '\n' -> b.append('\n');
                case '\u2018', '\u2019', '\u201A', '\u201B', '\u02BC', '\u2032' -> b.append('\'');
                case '«', '\u201E', '\u201F' -> b.append('“');
                case '»' -> b.append('”');
                case '[', '{' -> b.append('(');
                case ']', '}' -> b.append(')');
                case '¡', '¿' -> {}
                case '―', '\u2E3A', '\u2E3B' -> b.append('—');
                case '、', '，' -> b.append(", ");
                case '。', '।', '॥' -> b.append(". "); // the Devanagari danda ends a sentence
                case '！' -> b.append("! ");
                case '？' -> b.append("? ");
                case '：' -> b.append(": ");
                case '；' -> b.append("; ");
                case '.' -> {
                    int j = i;
                    while (j < s.length() && s.charAt(j) == '.') j++;
                    if (j - i >= 3) {
                        b.append('…');
                        i = j - 1;
                    } else {
                        b.append('.');
                    }
                }
                case '-', '–' -> {
                    // "--" and a dash standing between spaces are a pause; a hyphen inside a word or number is not
                    boolean doubled = i + 1 < s.length() && (s.charAt(i + 1) == '-' || s.charAt(i + 1) == '–');
                    boolean spaced = i > 0
                            && Character.isWhitespace(s.charAt(i - 1))
                            && i + 1 < s.length()
                            && Character.isWhitespace(s.charAt(i + 1));
                    if (doubled) {
                        while (i + 1 < s.length() && (s.charAt(i + 1) == '-' || s.charAt(i + 1) == '–')) i++;
                        b.append('—');
                    } else if (spaced) {
                        b.append('—');
                    } else {
                        b.append('-');
                    }
                }
                default -> {
                    if (Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c))
                        b.append(' ');
                    else b.append(c);
                }
            }
        }
        return b.toString();
    }

    /**
     * Whether the mark at {@code i} separates speech; when false it is part of a word (a number, an abbreviation, an
     * initialism, a name's initial) and goes to espeak with it. The end of {@code text} counts as the end of the text.
     */
    static boolean isBoundary(CharSequence text, int i) {
        char c = text.charAt(i);
        boolean digitBefore = i > 0 && Character.isDigit(text.charAt(i - 1));
        boolean digitAfter = i + 1 < text.length() && Character.isDigit(text.charAt(i + 1));
        if ((c == '.' || c == ',' || c == ':') && digitBefore && digitAfter) return false; // 3.5, 1,234, 10:30
        if (c != '.') return true;
        if (i + 1 < text.length() && Character.isLetterOrDigit(text.charAt(i + 1)))
            return false; // e.g, U.S, example.com
        int start = i;
        while (start > 0 && (Character.isLetter(text.charAt(start - 1)) || text.charAt(start - 1) == '.')) start--;
        String word = text.subSequence(start, i).toString();
        int next = nextNonSpace(text, i + 1);
        boolean textEnds = next == text.length() || newlines(text, i + 1, next) >= 2; // the text or its paragraph
        if (textEnds) return true;
        char n = text.charAt(next);
        if (closes(n) || n != '(' && n != '“' && isMark(n)) return true; // "(in the U.S.)", "U.S.,": the mark decides
        if (NOT_FULL_STOPS.contains(word)) return false;
        if (word.equals("No") && Character.isDigit(n)) return false; // No. 5
        boolean spaced = next > i + 1;
        int letter = n == '"' || n == '“' || n == '(' ? nextNonSpace(text, next + 1) : next;
        boolean sentenceFollows = spaced && letter < text.length() && Character.isUpperCase(text.charAt(letter));
        String lower = word.toLowerCase(java.util.Locale.ROOT);
        // etc. The end; "ext. 12", "Fig. 3", "Jan. 5", "Dept. of": a number or a lower-case word goes on the sentence
        if (ENDING_ABBREVIATIONS.contains(lower) || COMMON_ABBREVIATIONS.contains(lower)) return sentenceFollows;
        if (!isInitialism(word)) return true;
        if (word.equalsIgnoreCase("e.g") || word.equalsIgnoreCase("i.e")) return false;
        if (word.length() == 1 && Character.isUpperCase(word.charAt(0)) && sentenceFollows)
            return false; // J. R. R. Tolkien
        return sentenceFollows;
    }

    /**
     * Abbreviations whose "." is no full stop, unless the text or its paragraph ends there: titles before a name in the
     * languages Kokoro speaks ("Dr. Smith", "Sra. García", "Mme. Curie") and English ones after a name ("Smith Jr.
     * went"). English text has them spelled out by {@link EnglishNormalizer} before the phonemizer asks, so this matters
     * there for {@link SentenceReader}, which sees the text as written and must not cut where the phonemizer has no mark.
     */
    private static final Set<String> NOT_FULL_STOPS = Set.of(
            "Mr", "Mrs", "Ms", "Dr", "Prof", "Mt", "Capt", "Gen", "Sgt", "Lt", "Col", "St", "Sr", "Sra", "Srta", "Dra",
            "Mme", "Mlle", "Sig", "Dott", "Fr", "Jr", "Inc", "approx", "vs");
    /** Abbreviations that often end a sentence: a full stop only when a capital follows. */
    private static final Set<String> ENDING_ABBREVIATIONS = Set.of("etc", "ltd", "co", "corp");
    /**
     * Abbreviations of English running text, before a number or inside a phrase ("ext. 12", "vol. 2", "Jan. 5", "the Dept.
     * of Health"); lower case, compared so. Like the ending ones, a full stop only when a capital follows: "we met in
     * Jan. The rest" is two sentences.
     */
    private static final Set<String> COMMON_ABBREVIATIONS = Set.of(
            "ext", "tel", "fig", "figs", "vol", "vols", "ch", "chap", "sec", "pp", "para", "art", "apt", "rm", "dept",
            "univ", "ave", "blvd", "rd", "est", "cf", "ca", "nos", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
            "sep", "sept", "oct", "nov", "dec");

    /** One letter, or letters each followed by a dot but the last: "J", "U.S", "e.g", "a.m". */
    private static boolean isInitialism(String word) {
        if (word.isEmpty()) return false;
        for (int k = 0; k < word.length(); k++) {
            boolean letterHere = k % 2 == 0;
            if (letterHere != Character.isLetter(word.charAt(k)) || !letterHere && word.charAt(k) != '.') return false;
        }
        return word.length() % 2 == 1;
    }

    private static int newlines(CharSequence text, int from, int to) {
        int n = 0;
        for (int k = from; k < to; k++) if (text.charAt(k) == '\n') n++;
        return n;
    }

    static int nextNonSpace(CharSequence text, int from) {
        int k = from;
        while (k < text.length() && Character.isWhitespace(text.charAt(k))) k++;
        return k;
    }
}
