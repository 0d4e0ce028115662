package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rewrite rules one at a time, on espeak IPA written by hand ('^' stands for espeak's tie, U+0361). The expected
 * strings follow misaki's espeak.py rules for Kokoro v1.0, worked through by hand; where a word is in misaki's gold
 * lexicon (us_gold.json, gb_gold.json, with v1.0's ɾ to T and ʔ to t), the result is that entry.
 */
class EspeakIpaMappingTest {
    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                // diphthongs and affricates, tied only: the untied tʃ of merchantship spans two syllables (misaki's
                // EN_PHONES.md example)
                "a|mˈɜːt^ʃəntʃˌɪp|mˈɜɹʧəntʃˌɪp",
                "b|mˈɜːt^ʃəntʃˌɪp|mˈɜːʧəntʃˌɪp",
                "a|hˈa^ɪ hˈa^ʊ dˈe^ɪ bˈɔ^ɪ d^ʒˈʌd^ʒ|hˈI hˈW dˈA bˈY ʤˈʌʤ",
                "a|həlˈo^ʊ|həlˈO", // us_gold hello
                "b|həlˈə^ʊ|həlˈQ", // gb_gold hello
                // r-coloured vowels and length in American English
                "a|wˈɔːɾɚ|wˈɔTəɹ", // us_gold water (ɾ to T)
                "a|nˈɜːs wɜː|nˈɜɹs wɜɹ", // us_gold nurse
                "a|ʧˈɜː^ɹʧ|ʧˈɜɹʧ",
                "a|fˈoː^ɹ|fˈɔɹ", // us_gold four: o (espeak < 1.52) to ɔ, length dropped
                "a|stˈɑː^ɹt|stˈɑɹt", // us_gold start
                "a|a^ɪdˈi^ə|Idˈiə", // us_gold idea
                "a|vˈʌlnɚɹəbə^l|vˈʌlnəɹəbᵊl", // linking r after ɚ: one ɹ, as us_gold vulnerable
                "a|kjˈʊ^ɹɹiəs|kjˈʊɹiəs",
                // British: length kept, centring diphthongs
                "b|skwˈe^ə|skwˈɛː", // gb_gold square (misaki's code turns e to A first)
                "b|nˌi^ə|nˌɪə", // gb_gold near
                "b|kjˈʊ^ə wˈɔːtə|kjˈʊə wˈɔːtə", // gb_gold cure, water
                // syllabic consonants and the glottal stop
                "a|bˈʌʔn̩|bˈʌtn", // us_gold button (ʔ to t)
                "a|lˈɪɾə^l|lˈɪTᵊl", // us_gold little
                "b|bˈɒtl̩|bˈɒtᵊl",
                // sounds Kokoro's English has no symbol for
                "a|lˈɔx bˈɑːx|lˈɔk bˈɑk",
                "a|ɪç rˈɛd ɬˈan nˈæsɐ|ɪk ɹˈɛd lˈan nˈæsə",
                "a|nʲˈuː mʲə|nˈu mjə",
                "a|kæfˈe^ɪ ɑ̃|kæfˈA ɑ",
                // espeak 1.51 ties the letters of a language switch flag
                "a|(^e^n)hˈa^ɪ(^f^r)|hˈI",
                // other languages: affricates and diphthongs, nasal tilde kept, compound hyphens dropped
                "f|bɔ̃ʒˈuʁ kˈatʁ-vˈɛ̃|bɔ̃ʒˈuʁ kˈatʁvˈɛ̃",
                "i|t^ʃˈao pˈit^sːa ad^zːˈurro|ʧˈao pˈiʦːa aʣːˈurro",
                "e|t^ʃoɾˈiθo βˈe^ɪnte|ʧoɾˈiθo βˈAnte",
                "p|nˈɐ̃^ʊ̃ e^ʊ|nˈɐ̃ʊ̃ eʊ",
                "h|nəmˈʌsteː hɛ̃|nəmˈʌsteː hɛ̃"
            })
    void mapsEspeakIpaToKokoroSymbols(String code, String espeak, String kokoro) {
        String ipa = espeak.replace('^', EspeakNg.TIE);
        assertThat(EspeakIpaMapping.toKokoro(ipa, KokoroLanguage.of(code))).isEqualTo(kokoro);
    }
}
