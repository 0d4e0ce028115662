package dev.audioengine.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Normalises English transcripts before they are scored, the way OpenAI Whisper's EnglishTextNormalizer (release
 * 20250625) does, so word error rates compare with published ones. In order: lower case; text in [brackets],
 * &lt;angle brackets&gt; and (parentheses) is removed; the fillers hmm, mm, mhm, mmm, uh and um are removed;
 * contractions and titles are spelled out ("won't" → "will not", "n't" → " not", "'re" → " are", "mr" → "mister",
 * "st" → "saint", "dr" → "doctor"); commas between digits go; punctuation, symbols and diacritics become spaces or
 * go, except {@code . % $ ¢ € £} next to numbers; spelled-out numbers become digits ("twenty one" → "21", "ten of
 * clubs" → "10 of clubs", "first" → "1st", "fifty percent" → "50%"; see {@link EnglishNumberNormalizer} for the
 * rules, quirks such as "one" staying a word included); common British spellings become American ("colour" →
 * "color"; a shorter list than Whisper's, see {@link BritishAmericanSpellings}); runs of whitespace become one space.
 *
 * <p>Apply it to both the reference and the hypothesis: "ten" in a reference and "10" in a hypothesis then agree.
 * One deliberate difference: Whisper may leave a space at either end; this trims it, which no word-level score sees.
 * Deterministic and thread-safe.
 */
public final class EnglishTextNormalizer {
    private static final int FLAGS = Pattern.UNICODE_CHARACTER_CLASS;
    private static final Pattern BRACKETED = Pattern.compile("[<\\[][^>\\]]*[>\\]]", FLAGS);
    private static final Pattern PARENTHESISED = Pattern.compile("\\(([^)]+?)\\)", FLAGS);
    private static final Pattern FILLERS = Pattern.compile("\\b(hmm|mm|mhm|mmm|uh|um)\\b", FLAGS);
    private static final Pattern SPACE_BEFORE_APOSTROPHE = Pattern.compile("\\s+'", FLAGS);
    private static final Pattern COMMA_BETWEEN_DIGITS = Pattern.compile("(\\d),(\\d)", FLAGS);
    private static final Pattern PERIOD_NOT_BEFORE_DIGIT = Pattern.compile("\\.([^0-9]|$)", FLAGS);
    private static final Pattern SYMBOL_NOT_BEFORE_DIGIT = Pattern.compile("[.$¢€£]([^0-9])", FLAGS);
    private static final Pattern PERCENT_NOT_AFTER_DIGIT = Pattern.compile("([^0-9])%", FLAGS);
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", FLAGS);

    private record Replacement(Pattern pattern, String with) {}

    /** Applied in this order, each to the whole text: the specific forms before the general "'s" and "n't". */
    private static final List<Replacement> REPLACEMENTS = replacements();

    private final EnglishNumberNormalizer numbers = new EnglishNumberNormalizer();

    public String normalize(String text) {
        String s = text.toLowerCase(Locale.ROOT);
        s = BRACKETED.matcher(s).replaceAll("");
        s = PARENTHESISED.matcher(s).replaceAll("");
        s = FILLERS.matcher(s).replaceAll("");
        s = SPACE_BEFORE_APOSTROPHE.matcher(s).replaceAll("'");
        for (Replacement r : REPLACEMENTS) s = r.pattern().matcher(s).replaceAll(r.with());
        s = COMMA_BETWEEN_DIGITS.matcher(s).replaceAll("$1$2");
        s = PERIOD_NOT_BEFORE_DIGIT.matcher(s).replaceAll(" $1");
        s = SymbolsAndDiacritics.replace(s, ".%$¢€£");
        s = numbers.normalize(s);
        List<String> words = new ArrayList<>();
        for (String w : WHITESPACE.split(s)) if (!w.isEmpty()) words.add(BritishAmericanSpellings.american(w));
        s = String.join(" ", words);
        s = SYMBOL_NOT_BEFORE_DIGIT.matcher(s).replaceAll(" $1");
        s = PERCENT_NOT_AFTER_DIGIT.matcher(s).replaceAll("$1 ");
        return WHITESPACE.matcher(s).replaceAll(" ").strip();
    }

    private static List<Replacement> replacements() {
        String[][] table = {
            // whole-word contractions
            {"\\bwon't\\b", "will not"},
            {"\\bcan't\\b", "can not"},
            {"\\blet's\\b", "let us"},
            {"\\bain't\\b", "aint"},
            {"\\by'all\\b", "you all"},
            {"\\bwanna\\b", "want to"},
            {"\\bgotta\\b", "got to"},
            {"\\bgonna\\b", "going to"},
            {"\\bi'ma\\b", "i am going to"},
            {"\\bimma\\b", "i am going to"},
            {"\\bwoulda\\b", "would have"},
            {"\\bcoulda\\b", "could have"},
            {"\\bshoulda\\b", "should have"},
            {"\\bma'am\\b", "madam"},
            // titles and other abbreviations (the trailing spaces are as in Whisper)
            {"\\bmr\\b", "mister "},
            {"\\bmrs\\b", "missus "},
            {"\\bst\\b", "saint "},
            {"\\bdr\\b", "doctor "},
            {"\\bprof\\b", "professor "},
            {"\\bcapt\\b", "captain "},
            {"\\bgov\\b", "governor "},
            {"\\bald\\b", "alderman "},
            {"\\bgen\\b", "general "},
            {"\\bsen\\b", "senator "},
            {"\\brep\\b", "representative "},
            {"\\bpres\\b", "president "},
            {"\\brev\\b", "reverend "},
            {"\\bhon\\b", "honorable "},
            {"\\basst\\b", "assistant "},
            {"\\bassoc\\b", "associate "},
            {"\\blt\\b", "lieutenant "},
            {"\\bcol\\b", "colonel "},
            {"\\bjr\\b", "junior "},
            {"\\bsr\\b", "senior "},
            {"\\besq\\b", "esquire "},
            // perfect tenses, where "'s" and "'d" are "has" and "had" rather than "is" and "would"
            {"'d been\\b", " had been"},
            {"'s been\\b", " has been"},
            {"'d gone\\b", " had gone"},
            {"'s gone\\b", " has gone"},
            {"'d done\\b", " had done"},
            {"'s got\\b", " has got"},
            // the general endings
            {"n't\\b", " not"},
            {"'re\\b", " are"},
            {"'s\\b", " is"},
            {"'d\\b", " would"},
            {"'ll\\b", " will"},
            {"'t\\b", " not"},
            {"'ve\\b", " have"},
            {"'m\\b", " am"},
        };
        List<Replacement> list = new ArrayList<>();
        for (String[] row : table) list.add(new Replacement(Pattern.compile(row[0], FLAGS), row[1]));
        return List.copyOf(list);
    }
}
