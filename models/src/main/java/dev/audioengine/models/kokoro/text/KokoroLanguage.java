package dev.audioengine.models.kokoro.text;

/**
 * The Kokoro-82M languages whose phonemes come from espeak-ng, each with the one-letter code that starts its voice
 * names ({@code af_heart} is American English) and the espeak language it is phonemized in, as kokoro's pipeline
 * picks them. Japanese ({@code j}) and Mandarin ({@code z}) are not here: Kokoro was trained on misaki's own phonemes
 * for them (from pyopenjtalk and pypinyin), and espeak-ng cannot stand in (1.51 reads kanji and hanzi as English
 * letter names and writes Mandarin tones as digits).
 */
public enum KokoroLanguage {
    AMERICAN_ENGLISH('a', "en-us", "American English"),
    BRITISH_ENGLISH('b', "en-gb", "British English"),
    SPANISH('e', "es", "Spanish"),
    FRENCH('f', "fr-fr", "French"),
    HINDI('h', "hi", "Hindi"),
    ITALIAN('i', "it", "Italian"),
    BRAZILIAN_PORTUGUESE('p', "pt-br", "Brazilian Portuguese");

    private final char code;
    private final String espeakLanguage;
    private final String displayName;

    KokoroLanguage(char code, String espeakLanguage, String displayName) {
        this.code = code;
        this.espeakLanguage = espeakLanguage;
        this.displayName = displayName;
    }

    /** The letter kokoro's pipeline and voice names use, e.g. 'a'. */
    public char code() {
        return code;
    }

    /** The espeak-ng language, e.g. "en-us". */
    public String espeakLanguage() {
        return espeakLanguage;
    }

    public boolean isEnglish() {
        return this == AMERICAN_ENGLISH || this == BRITISH_ENGLISH;
    }

    /** The language of a code ('a') or of a voice name ("af_heart", "bm_george"). */
    public static KokoroLanguage of(String codeOrVoice) {
        if (codeOrVoice == null || codeOrVoice.isEmpty())
            throw new IllegalArgumentException("no Kokoro language code or voice name given");
        String s = codeOrVoice.toLowerCase(java.util.Locale.ROOT);
        for (KokoroLanguage l : values()) {
            if (s.equals(l.espeakLanguage)) return l;
        }
        char c = s.charAt(0);
        if (s.length() == 1 || s.length() > 2 && s.charAt(2) == '_') {
            for (KokoroLanguage l : values()) {
                if (l.code == c) return l;
            }
            if (c == 'j' || c == 'z') {
                throw new IllegalArgumentException(
                        "\"" + codeOrVoice + "\": Kokoro's " + (c == 'j' ? "Japanese" : "Mandarin")
                                + " voices need misaki's " + (c == 'j' ? "kana" : "pinyin")
                                + " phonemes, which espeak-ng cannot give;"
                                + " this front end speaks the voices whose names start with " + supported());
            }
        }
        throw new IllegalArgumentException(
                "\"" + codeOrVoice + "\" is no Kokoro language: expected a voice name such as af_heart, an"
                        + " espeak code such as en-us, or the letter that starts the voice names of a language: "
                        + supported());
    }

    /** "a (American English), b (British English), ... or p (Brazilian Portuguese)". */
    static String supported() {
        StringBuilder s = new StringBuilder();
        KokoroLanguage[] all = values();
        for (int i = 0; i < all.length; i++) {
            if (i > 0) s.append(i == all.length - 1 ? " or " : ", ");
            s.append(all[i].code).append(" (").append(all[i].displayName()).append(')');
        }
        return s.toString();
    }

    /** "American English", "Brazilian Portuguese". */
    public String displayName() {
        return displayName;
    }
}
