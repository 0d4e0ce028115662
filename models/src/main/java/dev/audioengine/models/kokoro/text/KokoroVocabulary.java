package dev.audioengine.models.kokoro.text;

import java.util.Arrays;

/**
 * Kokoro-82M's input symbols and their token ids (the model's {@code vocab}: 114 phoneme, stress and punctuation
 * symbols, each one code point, plus {@code $}, id 0, which pads and brackets a sequence and is no symbol of text).
 * Immutable and thread-safe.
 */
public final class KokoroVocabulary {
    /** The pad and boundary token; never part of a phoneme string. */
    public static final char PAD = '$';

    // in id order; "\u0303" is the combining tilde, which the non-English voices use for nasal vowels
    private static final String SYMBOLS = "$;:,.!?—…\"()“” \u0303ʣʥʦʨᵝꭧAIOQSTWYᵊabcdefhijklmnopqrstuvwxyzɑɐɒæβɔɕçɖðʤəɚɛɜɟɡɥɨɪʝɯɰŋɳɲɴøɸθœɹɾɻʁɽʂʃʈʧʊʋʌɣɤχʎʒʔˈˌːʰʲ↓→↗↘ᵻ";
    private static final int[] IDS = {
            0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 31, 33, 35, 36, 39, 41, 42, 43, 44,
            45, 46, 47, 48, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 75, 76, 77, 78,
            80, 81, 82, 83, 85, 86, 87, 90, 92, 99, 101, 102, 103, 110, 111, 112, 113, 114, 115, 116, 118, 119, 120, 123, 125, 126,
            128, 129, 130, 131, 132, 133, 135, 136, 138, 139, 140, 142, 143, 147, 148, 156, 157, 158, 162, 164, 169, 171, 172, 173, 177};

    private static final KokoroVocabulary V1 = new KokoroVocabulary(SYMBOLS, IDS);

    /** Code point to id, -1 where none; every symbol is in the BMP. */
    private final int[] idOf = new int[0x10000];
    private final String symbols;

    private KokoroVocabulary(String symbols, int[] ids) {
        if (symbols.length() != ids.length || symbols.codePointCount(0, symbols.length()) != ids.length) {
            throw new IllegalStateException("vocabulary table: " + symbols.length() + " symbols, " + ids.length + " ids");
        }
        Arrays.fill(idOf, -1);
        for (int i = 0; i < ids.length; i++) idOf[symbols.charAt(i)] = ids[i];
        this.symbols = symbols;
    }

    /** Kokoro-82M v1.0's vocabulary (the same in v0.19 and in the ONNX exports). */
    public static KokoroVocabulary v1() { return V1; }

    /** The symbols, in id order, {@link #PAD} first. */
    public String symbols() { return symbols; }

    /** The number of symbols, {@link #PAD} included. */
    public int size() { return symbols.length(); }

    /** The token id of a symbol, or -1 if it is not one. */
    public int id(int codePoint) {
        return codePoint >= 0 && codePoint < idOf.length ? idOf[codePoint] : -1;
    }

    /** Whether a code point may appear in a phoneme string: a symbol other than {@link #PAD}. */
    public boolean isPhonemeSymbol(int codePoint) {
        return codePoint != PAD && id(codePoint) >= 0;
    }
}
