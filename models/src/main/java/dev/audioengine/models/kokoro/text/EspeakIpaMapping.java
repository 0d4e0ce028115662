package dev.audioengine.models.kokoro.text;

import java.util.regex.Pattern;

/**
 * Rewrites espeak-ng's IPA (with {@link EspeakNg#TIE} between the letters of one phoneme) into Kokoro's symbols, as
 * hexgrad/misaki's espeak.py does for Kokoro-82M v1.0: {@code EspeakFallback} for English, {@code EspeakG2P} for the
 * other languages. Symbols that are still outside the vocabulary are left for the caller to drop and count.
 *
 * <p>The tied rules run while the ties are still there: a tie is what tells the affricate {@code t^ʃ} (ʧ) from a
 * {@code t} ending one syllable and an {@code ʃ} starting the next ("merchantship": mˈɜɹʧəntʃˌɪp). Two English rules
 * differ from misaki's code on purpose, as its order keeps them from ever firing: British {@code e^ə} becomes ɛː before
 * the general {@code e} to A (misaki's lexicon has "square" as skwˈɛː), and British {@code i^ə} becomes ɪə whether tied
 * or not ("near": nˌɪə). One is added: the ɹɹ that
 * espeak's linking r after an r-coloured vowel leaves ("vulnerable", vˈʌlnɚɹəbəl) becomes one ɹ, as in misaki's lexicon.
 * Stateless and thread-safe.
 */
final class EspeakIpaMapping {
    private EspeakIpaMapping() {}

    private static final char TIE = '^';

    /** Language switches, e.g. "(en)", which espeak 1.51 writes with ties inside: "(͡e͡n)". */
    private static final Pattern LANGUAGE_FLAG = Pattern.compile("\\([\\^a-z-]+\\)");
    /** A syllabic consonant (combining vertical line below, U+0329) is written as a small schwa before it. */
    private static final Pattern SYLLABIC = Pattern.compile("(\\S)\u0329");

    /** Diphthongs and affricates, in both Englishes. */
    private static final String[][] ENGLISH_TIED = {
        {"a^ɪ", "I"}, {"a^ʊ", "W"}, {"e^ɪ", "A"}, {"ɔ^ɪ", "Y"}, {"d^ʒ", "ʤ"}, {"t^ʃ", "ʧ"}, {"ə^l", "ᵊl"}
    };

    private static final String[][] AMERICAN_TIED = {{"o^ʊ", "O"}};
    private static final String[][] BRITISH_TIED = {{"ə^ʊ", "Q"}, {"e^ə", "ɛː"}};

    /** After the ties are gone, longest first where one rule's text contains another's. */
    private static final String[][] ENGLISH_PLAIN = {
        {"ʔˌn\u0329", "ʔn"},
        {"ʔn\u0329", "ʔn"}, // a glottal stop before a syllabic n: "button", bˈʌʔn̩
        {"ʲO", "jO"},
        {"ʲQ", "jQ"},
        {"ʲo", "jo"},
        {"ʲə", "jə"},
        {"ʲ", ""},
        {"ɚ", "əɹ"},
        {"r", "ɹ"},
        {"x", "k"},
        {"ç", "k"},
        {"ɐ", "ə"},
        {"ɬ", "l"},
        {"\u0303", ""},
        {"e", "A"}
    }; // an e left over is the first half of the diphthong eɪ

    private static final String[][] AMERICAN_PLAIN = {
        {"ɜːɹ", "ɜɹ"}, {"ɜː", "ɜɹ"}, // American espeak writes the r-coloured ɝ as ɜː
        {"ɪə", "iə"}, {"ː", ""}
    };
    private static final String[][] BRITISH_PLAIN = {{"iə", "ɪə"}};

    private static final String[][] OTHER_TIED = {
        {"a^ɪ", "I"},
        {"a^ʊ", "W"},
        {"d^z", "ʣ"},
        {"d^ʒ", "ʤ"},
        {"e^ɪ", "A"},
        {"o^ʊ", "O"},
        {"ə^ʊ", "Q"},
        {"s^s", "S"},
        {"t^s", "ʦ"},
        {"t^ʃ", "ʧ"},
        {"ɔ^ɪ", "Y"}
    };

    /** espeak's phonemes for one run of text, in Kokoro's symbols (plus whatever Kokoro has no symbol for). */
    static String toKokoro(String ipa, KokoroLanguage language) {
        String ps = LANGUAGE_FLAG.matcher(ipa.replace(EspeakNg.TIE, TIE)).replaceAll("");
        return language.isEnglish() ? english(ps, language == KokoroLanguage.BRITISH_ENGLISH) : other(ps);
    }

    private static String english(String ps, boolean british) {
        ps = apply(ps, british ? BRITISH_TIED : AMERICAN_TIED);
        ps = apply(ps, ENGLISH_TIED);
        ps = ps.replace(String.valueOf(TIE), "");
        ps = apply(ps, ENGLISH_PLAIN);
        ps = SYLLABIC.matcher(ps).replaceAll("ᵊ$1").replace("\u0329", "");
        ps = apply(ps, british ? BRITISH_PLAIN : AMERICAN_PLAIN);
        ps = ps.replace('o', 'ɔ'); // espeak before 1.52 writes the vowel of "thought" and "four" as o
        // espeak writes a linking r after an r-coloured vowel (vˈʌlnɚɹəbəl, kjˈʊ^ɹɹiəs), which the rules above double
        ps = ps.replace("ɹɹ", "ɹ");
        // Kokoro v1.0's symbols for the flap and the glottal stop (misaki's version != "2.0")
        return ps.replace('ɾ', 'T').replace('ʔ', 't');
    }

    private static String other(String ps) {
        ps = apply(ps, OTHER_TIED);
        // remaining ties, and the hyphens espeak puts between parts of a compound
        return ps.replace(String.valueOf(TIE), "").replace("-", "");
    }

    private static String apply(String ps, String[][] rules) {
        for (String[] r : rules) ps = ps.replace(r[0], r[1]);
        return ps;
    }
}
