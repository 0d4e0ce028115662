package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Text to Kokoro phonemes through Debian's espeak-ng 1.51 (libespeak-ng1; these tests fail with the install command without it). */
class KokoroPhonemizerTest {
    private static final KokoroPhonemizer US =
            KokoroPhonemizer.of(KokoroLanguage.AMERICAN_ENGLISH, ShippedVocabulary.VOCABULARY);
    private static final KokoroPhonemizer GB =
            KokoroPhonemizer.of(KokoroLanguage.BRITISH_ENGLISH, ShippedVocabulary.VOCABULARY);

    private static String us(String text) {
        return US.phonemize(text).phonemes();
    }

    /**
     * Single words whose Kokoro phonemes are in misaki's gold lexicons (us_gold.json, gb_gold.json: what Kokoro was trained
     * on; v1.0 writes ɾ as T and ʔ as t): espeak's IPA through the mapping must give exactly those entries. The words cover
     * every diphthong, both affricates, the rhotic and long vowels, the flap, the glottal stop and the small schwa.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a|hello|həlˈO",
                "a|water|wˈɔTəɹ",
                "a|little|lˈɪTᵊl",
                "a|button|bˈʌtn",
                "a|thought|θˈɔt",
                "a|four|fˈɔɹ",
                "a|start|stˈɑɹt",
                "a|nurse|nˈɜɹs",
                "a|square|skwˈɛɹ",
                "a|cure|kjˈʊɹ",
                "a|idea|Idˈiə",
                "a|going|ɡˈOɪŋ",
                "a|judge|ʤˈʌʤ",
                "a|church|ʧˈɜɹʧ",
                "a|voice|vˈYs",
                "a|house|hˈWs",
                "a|day|dˈA",
                "a|time|tˈIm",
                "a|father|fˈɑðəɹ",
                "a|city|sˈɪTi",
                "a|pleasure|plˈɛʒəɹ",
                "a|kitten|kˈɪtn",
                "a|tomorrow|təmˈɑɹO",
                "a|computer|kəmpjˈuTəɹ",
                "b|hello|həlˈQ",
                "b|water|wˈɔːtə",
                "b|little|lˈɪtᵊl",
                "b|thought|θˈɔːt",
                "b|four|fˈɔː",
                "b|start|stˈɑːt",
                "b|nurse|nˈɜːs",
                "b|square|skwˈɛː",
                "b|cure|kjˈʊə",
                "b|idea|Idˈɪə",
                "b|going|ɡˈQɪŋ",
                "b|church|ʧˈɜːʧ",
                "b|father|fˈɑːðə",
                "b|bottle|bˈɒtᵊl",
                "b|music|mjˈuːzɪk",
                "b|phone|fˈQn",
                "b|zebra|zˈɛbɹə"
            })
    void wordsComeOutAsInMisakisLexicon(String code, String word, String expected) {
        assertThat(KokoroPhonemizer.of(code, ShippedVocabulary.VOCABULARY)
                        .phonemize(word)
                        .phonemes())
                .isEqualTo(expected);
    }

    /** Checked by hand word by word against the lexicon; the marks stand where the text has them. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a|Hello, world! How are you?|həlˈO, wˈɜɹld! hˈW ɑɹ ju?",
                "b|Hello, world! How are you?|həlˈQ, wˈɜːld! hˈW ɑː juː?",
                "a|Is it raining?|ɪz ɪt ɹˈAnɪŋ?",
                "a|Why not?!|wˌI nˈɑt?!",
                "a|Well… maybe.|wˈɛl… mˈAbi.",
                "a|\"Hi,\" she said (quietly).|\"hˈI,\" ʃi sˈɛd (kwˈIətli).",
                "a|My name is John Smith, and I live in Boston.|mI nˈAm ɪz ʤˈɑn smˈɪθ, ænd I lˈɪv ɪn bˈɔstən.",
                "b|My name is John Smith, and I live in Boston.|mI nˈAm ɪz ʤˈɒn smˈɪθ, and I lˈɪv ɪn bˈɒstən.",
                "a|She paid $3.50 on the 2nd of May, 1999.|ʃi pˈAd θɹˈi dˈɑləɹz ænd fˈɪfti sˈɛnts ɔnðə sˈɛkənd ʌv mˈA, nˈIntin nˈInti nˈIn.",
                // espeak reads these right by itself
                "a|1,234|wˈʌn θˈWzənd tˈuhˈʌndɹɪd θˈɜɹTi fˈɔɹ",
                "a|3.5|θɹˈi pYnt fˈIv",
                "a|50%|fˈɪfti pəɹsˈɛnt",
                "a|e.g. this|fˌɔɹɛɡzˈæmpᵊl ðˈɪs",
                "a|the U.S. army|ðə jˌuˈɛs ˈɑɹmi",
                "e|¿Dónde está la biblioteca?|dˈonde estˈa la βˌiβliotˈeka?",
                "f|Où est la gare?|u ɛ la ɡˈaʁ?"
            })
    void sentencesKeepTheirPunctuation(String code, String text, String expected) {
        assertThat(KokoroPhonemizer.of(code, ShippedVocabulary.VOCABULARY)
                        .phonemize(text)
                        .phonemes())
                .isEqualTo(expected);
    }

    /** Each pre-normaliser rule, heard: the form espeak misreads must sound like the words a listener expects. */
    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "It costs $20.|It costs twenty dollars.",
                "$1|one dollar",
                "$20.50|twenty dollars and fifty cents",
                "$0.99|ninety nine cents",
                "£5.50|five pounds and fifty pence",
                "$1,234|1,234 dollars",
                "in the 1990s|in the nineteen nineties",
                "the '80s|the eighties",
                "the 2000s|the two thousands",
                "in 2024|in twenty twenty four",
                "in 1905|in nineteen oh five",
                "in 1066|in ten sixty six",
                "in 2005|in two thousand five",
                "at 10:05|at ten oh five",
                "at 10:00|at ten o'clock",
                "at 10:00 pm|at ten pm",
                "at 10:30|at ten thirty",
                "the 100th|the one hundredth",
                "the 1,000th|the one thousandth",
                "the 21st|the twenty first",
                ".5 percent|point five percent",
                "pages 5-10|pages five to ten",
                "Dr. Smith|Doctor Smith",
                "Mr. Jones|Mister Jones",
                "Ms. Jones|Miz Jones",
                "Prof. Jones|Professor Jones",
                "Mt. Everest|Mount Everest",
                "St. Paul|Saint Paul",
                "on Elm St.|on Elm Street.",
                "Apple Inc. makes|Apple Incorporated makes",
                "Smith vs. Jones|Smith versus Jones",
                "No. 5|number five",
                "John Smith Jr. went|John Smith Junior went",
                "the 2nd|the second"
            })
    void writtenFormsSoundLikeTheirWords(String written, String spoken) {
        assertThat(us(written)).isEqualTo(us(spoken));
    }

    @Test
    void aPhoneNumberIsNoRange() {
        assertThat(us("call 555-1234")).isNotEqualTo(us("call 555 to 1234"));
    }

    @Test
    void abbreviationDotsAreNoFullStops() {
        String ps = us(
                "Dr. Smith met J. R. R. Tolkien in the U.S. The end, e.g. today. Mrs. Jones left at 5 p.m. and came back.");
        assertThat(ps.replaceAll("[^.,;:!?]", "")).isEqualTo(".,..");
        assertThat(ps)
                .isEqualTo("dˈɑktəɹ smˈɪθ mˈɛt ʤˈA ˈɑɹ ˈɑɹ tɔlkˈin ɪnðə jˌuˈɛs. ðɪ ˈɛnd, fˌɔɹɛɡzˈæmpᵊl tədˈA."
                        + " mˈɪsɪz ʤˈOnz lˈɛft æt fˈIv pˌiˈɛm ænd kˈAm bˈæk.");
    }

    @Test
    void everyMarkKokoroHasComesThrough() {
        Phonemes p = US.phonemize("Wait… what?! “Yes” (no) \"ok\"; fine: done — gone, right. Really!");
        assertThat(p.phonemes().replaceAll("[^;:,.!?—…\"()“”]", "")).isEqualTo("…?!“”()\"\";:—,.!");
        assertThat(p.dropped()).isEmpty();
    }

    @Test
    void symbolsKokoroLacksAreDroppedAndCounted() {
        // espeak reads the Devanagari letter in Hindi and writes the retroflex lateral ɭ, which Kokoro has no symbol
        // for
        Phonemes p = US.phonemize("ळ and ळ");
        assertThat(p.dropped()).containsEntry("ɭ", 2);
        assertThat(p.droppedCount()).isEqualTo(2);
        assertThat(p.phonemes()).doesNotContain("ɭ").contains("ænd");
        assertAllInVocabulary(p);
    }

    @Test
    void nothingToSayGivesNothing() {
        for (String text : List.of("", "   \n\n\t", "?!...", "— ( ) “ ”")) {
            Phonemes p = US.phonemize(text);
            assertThat(p.isSpeakable()).as("%s", text).isFalse();
            assertThat(p.dropped()).isEmpty();
        }
        assertThat(US.phonemize("").phonemes()).isEmpty();
    }

    /** espeak-ng names emoji and symbols (its emoji list has CLDR's names), as screen readers do: speech, not nothing. */
    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {"\uD83C\uDF89|party popper", "\u2665|heart suit", "#|hash", "%|percent"})
    void emojiAndSymbolsAreSaidByTheirNames(String symbol, String name) {
        Phonemes p = US.phonemize(symbol);
        assertThat(p.isSpeakable()).isTrue();
        assertThat(p.phonemes()).isEqualTo(us(name));
    }

    /** Seeded sentences of words, names, numbers, money, dates and punctuation: only vocabulary, and in English nothing dropped. */
    @Test
    void generatedSentencesStayInTheVocabulary() {
        Random random = new Random(20250115);
        for (KokoroLanguage language : KokoroLanguage.values()) {
            KokoroPhonemizer phonemizer = KokoroPhonemizer.of(language, ShippedVocabulary.VOCABULARY);
            int n = language.isEnglish() ? 300 : 60;
            for (int i = 0; i < n; i++) {
                String sentence = GeneratedText.sentence(random, language);
                Phonemes p = phonemizer.phonemize(sentence);
                assertAllInVocabulary(p);
                assertThat(p.isSpeakable()).as("%s: %s", language, sentence).isTrue();
                assertThat(p.phonemes())
                        .as("%s", sentence)
                        .doesNotContain("  ")
                        .isEqualTo(p.phonemes().strip());
                if (language.isEnglish())
                    assertThat(p.dropped())
                            .as("%s: %s -> %s", language, sentence, p.phonemes())
                            .isEmpty();
            }
        }
    }

    @Test
    void threadsPhonemizingAtOnceGetWhatOneThreadGets() throws Exception {
        List<String[]> work = new ArrayList<>();
        Random random = new Random(7);
        String[] codes = {"a", "b", "f", "e"};
        for (int i = 0; i < 80; i++) {
            String code = codes[i % codes.length];
            work.add(new String[] {code, GeneratedText.sentence(random, KokoroLanguage.of(code))});
        }
        Map<String, String> expected = new java.util.HashMap<>();
        for (String[] w : work)
            expected.put(
                    w[0] + "|" + w[1],
                    KokoroPhonemizer.of(w[0], ShippedVocabulary.VOCABULARY)
                            .phonemize(w[1])
                            .phonemes());

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                List<String[]> mine = new ArrayList<>(work);
                Collections.shuffle(mine, new Random(t)); // each thread switches voices in its own order
                Callable<List<String>> task = () -> {
                    List<String> wrong = new ArrayList<>();
                    for (int round = 0; round < 2; round++) {
                        for (String[] w : mine) {
                            String got = KokoroPhonemizer.of(w[0], ShippedVocabulary.VOCABULARY)
                                    .phonemize(w[1])
                                    .phonemes();
                            if (!got.equals(expected.get(w[0] + "|" + w[1])))
                                wrong.add(w[0] + ": " + w[1] + " -> " + got);
                        }
                    }
                    return wrong;
                };
                results.add(pool.submit(task));
            }
            for (Future<List<String>> r : results) assertThat(r.get()).isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    static void assertAllInVocabulary(Phonemes p) {
        KokoroVocabulary v = ShippedVocabulary.VOCABULARY;
        p.phonemes()
                .codePoints()
                .forEach(c -> assertThat(v.isPhonemeSymbol(c))
                        .as("U+%04X '%s' in %s", c, Character.toString(c), p.phonemes())
                        .isTrue());
    }
}
