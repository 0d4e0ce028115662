package dev.audioengine.models.kokoro.text;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Text to Kokoro-82M phonemes through espeak-ng, as kokoro's pipeline does with misaki's espeak path: the text's
 * punctuation is kept as Kokoro's symbols, the words between are phonemized by espeak and mapped by
 * {@link EspeakIpaMapping}; English first goes through {@link EnglishNormalizer}. Every symbol of the result is in the
 * model's {@link KokoroVocabulary} (its tokenizer.json); anything else is dropped and counted in {@link Phonemes#dropped()}.
 *
 * <p>Kokoro's own English front end is misaki's lexicon with espeak only for words it lacks; this one uses espeak for
 * every word, so some words differ from what Kokoro saw in training (mostly vowel reductions and stress). Thread-safe:
 * stateless, and espeak calls are serialized by {@link EspeakNg}.
 */
public final class KokoroPhonemizer {
    private static final Pattern SPACES = Pattern.compile(" {2,}");
    private static final Pattern SPACE_BEFORE_CLOSING = Pattern.compile(" +(?=[,.;:!?…)”])");
    private static final Pattern SPACE_AFTER_OPENING = Pattern.compile("(?<=[(“]) +");

    private final EspeakNg espeak;
    private final KokoroLanguage language;
    private final KokoroVocabulary vocabulary;

    private KokoroPhonemizer(EspeakNg espeak, KokoroLanguage language, KokoroVocabulary vocabulary) {
        this.espeak = espeak;
        this.language = language;
        this.vocabulary = vocabulary;
    }

    /**
     * A phonemizer for a language, writing the symbols of {@code vocabulary} (the model's); throws
     * {@link EspeakUnavailableException} (saying which packages to install) when libespeak-ng or its data is missing,
     * and IllegalArgumentException when espeak has no voice for the language.
     */
    public static KokoroPhonemizer of(KokoroLanguage language, KokoroVocabulary vocabulary) {
        EspeakNg espeak = EspeakNg.get();
        if (!espeak.languages().containsKey(language.espeakLanguage())) {
            throw new IllegalArgumentException(
                    "espeak-ng " + espeak.version() + " at " + espeak.dataPath() + " has no voice for "
                            + language.espeakLanguage() + " (" + language + "); install Debian's espeak-ng-data");
        }
        return new KokoroPhonemizer(espeak, language, vocabulary);
    }

    /** A phonemizer for a Kokoro language code ("a") or voice name ("af_heart"); see {@link KokoroLanguage#of}. */
    public static KokoroPhonemizer of(String codeOrVoice, KokoroVocabulary vocabulary) {
        return of(KokoroLanguage.of(codeOrVoice), vocabulary);
    }

    /** The vocabulary whose symbols it writes. */
    public KokoroVocabulary vocabulary() {
        return vocabulary;
    }

    public KokoroLanguage language() {
        return language;
    }

    /** The phonemes of {@code text}; empty (and not {@link Phonemes#isSpeakable() speakable}) when nothing in it can be said. */
    public Phonemes phonemize(String text) {
        String s = Punctuation.canonicalize(text);
        if (language.isEnglish()) s = EnglishNormalizer.normalize(s);
        StringBuilder out = new StringBuilder(s.length() * 2);
        int run = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Punctuation.isMark(c) && Punctuation.isBoundary(s, i)) {
                speak(s, run, i, out);
                out.append(c);
                run = i + 1;
            }
        }
        speak(s, run, s.length(), out);
        String joined = SPACES.matcher(out).replaceAll(" ");
        joined = SPACE_AFTER_OPENING
                .matcher(SPACE_BEFORE_CLOSING.matcher(joined).replaceAll(""))
                .replaceAll("")
                .strip();
        return keepVocabulary(joined);
    }

    /** Appends the phonemes of {@code s[from, to)}, with a space where the text has whitespace at either end. */
    private void speak(String s, int from, int to, StringBuilder out) {
        if (from >= to) return;
        String words = s.substring(from, to);
        if (Character.isWhitespace(words.charAt(0))) out.append(' ');
        if (!words.isBlank())
            out.append(EspeakIpaMapping.toKokoro(espeak.textToPhonemes(language.espeakLanguage(), words), language));
        if (Character.isWhitespace(words.charAt(words.length() - 1))) out.append(' ');
    }

    private Phonemes keepVocabulary(String ps) {
        StringBuilder kept = new StringBuilder(ps.length());
        Map<String, Integer> dropped = new HashMap<>();
        ps.codePoints().forEach(c -> {
            if (vocabulary.isPhonemeSymbol(c)) kept.appendCodePoint(c);
            else dropped.merge(Character.toString(c), 1, Integer::sum);
        });
        String result =
                dropped.isEmpty() ? ps : SPACES.matcher(kept).replaceAll(" ").strip();
        return new Phonemes(result, dropped);
    }
}
