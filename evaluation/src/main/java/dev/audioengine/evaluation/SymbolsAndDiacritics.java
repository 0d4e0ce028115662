package dev.audioengine.evaluation;

import java.text.Normalizer;
import java.util.Map;

/**
 * Replaces punctuation, symbols and marks by spaces and drops diacritics (after NFKD, so "é" becomes "e" and "½"
 * becomes "1 2"), as Whisper's normaliser does; letters that NFKD does not take apart ("æ", "ø", "ß", "ł") are
 * spelled out in ASCII.
 */
final class SymbolsAndDiacritics {
    private static final Map<Integer, String> UNDECOMPOSED_LETTERS = Map.ofEntries(
            Map.entry((int) 'œ', "oe"),
            Map.entry((int) 'Œ', "OE"),
            Map.entry((int) 'ø', "o"),
            Map.entry((int) 'Ø', "O"),
            Map.entry((int) 'æ', "ae"),
            Map.entry((int) 'Æ', "AE"),
            Map.entry((int) 'ß', "ss"),
            Map.entry((int) 'ẞ', "SS"),
            Map.entry((int) 'đ', "d"),
            Map.entry((int) 'Đ', "D"),
            Map.entry((int) 'ð', "d"),
            Map.entry((int) 'Ð', "D"),
            Map.entry((int) 'þ', "th"),
            Map.entry((int) 'Þ', "th"),
            Map.entry((int) 'ł', "l"),
            Map.entry((int) 'Ł', "L"));

    private SymbolsAndDiacritics() {}

    /** {@code s} with every mark, symbol and punctuation character that is not in {@code keep} replaced. */
    static String replace(String s, String keep) {
        String decomposed = Normalizer.normalize(s, Normalizer.Form.NFKD);
        StringBuilder out = new StringBuilder(decomposed.length());
        decomposed.codePoints().forEach(c -> {
            if (keep.indexOf(c) >= 0) {
                out.appendCodePoint(c);
            } else if (UNDECOMPOSED_LETTERS.containsKey(c)) {
                out.append(UNDECOMPOSED_LETTERS.get(c));
            } else {
                int type = Character.getType(c);
                if (type == Character.NON_SPACING_MARK) return; // the accent NFKD split off
                out.append(isMarkSymbolOrPunctuation(type) ? " " : new String(Character.toChars(c)));
            }
        });
        return out.toString();
    }

    private static boolean isMarkSymbolOrPunctuation(int type) {
        return switch (type) {
            case Character.COMBINING_SPACING_MARK,
                    Character.ENCLOSING_MARK,
                    Character.MATH_SYMBOL,
                    Character.CURRENCY_SYMBOL,
                    Character.MODIFIER_SYMBOL,
                    Character.OTHER_SYMBOL,
                    Character.CONNECTOR_PUNCTUATION,
                    Character.DASH_PUNCTUATION,
                    Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION,
                    Character.INITIAL_QUOTE_PUNCTUATION,
                    Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION -> true;
            default -> false;
        };
    }
}
