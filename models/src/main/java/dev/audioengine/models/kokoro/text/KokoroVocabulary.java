package dev.audioengine.models.kokoro.text;

import dev.audioengine.model.ModelFormatException;
import dev.audioengine.models.json.ModelJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kokoro's phoneme vocabulary, read from the {@code tokenizer.json} the model ships with ({@code model.vocab}: each
 * symbol, one Unicode code point, to its id; in Kokoro-82M v1.0 114 phoneme, stress and punctuation symbols plus the
 * pad, ids sparse between 0 and 177). It is the one source of the symbol set: the front end keeps only these symbols
 * ({@link #isPhonemeSymbol}) and {@link #encode} turns them into the network's ids. Id 0 is the pad symbol {@code $},
 * which the network expects at both ends of every input ({@code [0, ids..., 0]}, as hexgrad's KModel.forward builds
 * it) and which is no symbol of text. The tokenizer's normalizer and pre-tokenizer only strip characters outside the
 * vocabulary and split into code points, which {@link #encode} does directly. Immutable and thread-safe.
 */
public final class KokoroVocabulary {
    /** The pad id at both ends of an input. */
    public static final int PAD = 0;
    /** The pad's symbol. */
    public static final String PAD_SYMBOL = "$";
    /** Positions of ALBERT's table (512) less the two pads: the most phonemes one input can hold. */
    public static final int MAX_PHONEMES = 510;

    private final Map<Integer, Integer> ids; // code point → id
    private final String[] symbols; // id → symbol, null where no symbol has that id

    private KokoroVocabulary(Map<Integer, Integer> ids, String[] symbols) {
        this.ids = ids;
        this.symbols = symbols;
    }

    public static KokoroVocabulary read(Path tokenizerJson) throws IOException {
        Path file = tokenizerJson;
        if (!(ModelJson.read(file, Files.readAllBytes(file)) instanceof Map<?, ?> root)) {
            throw new ModelFormatException(file + ": expected a tokenizer.json object at the top level");
        }
        if (!(root.get("model") instanceof Map<?, ?> model) || !(model.get("vocab") instanceof Map<?, ?> vocab)) {
            throw new ModelFormatException(file + ": expected an object model.vocab mapping phoneme symbols to ids");
        }
        Map<Integer, Integer> ids = new LinkedHashMap<>();
        int max = -1;
        for (Map.Entry<?, ?> e : vocab.entrySet()) {
            String symbol = (String) e.getKey();
            if (symbol.codePointCount(0, symbol.length()) != 1) {
                throw new ModelFormatException(file + ": model.vocab symbol \"" + symbol
                        + "\" is not one code point; Kokoro's symbols are single" + " characters, one id each");
            }
            if (!(e.getValue() instanceof Long id) || id < 0 || id > Short.MAX_VALUE) {
                throw new ModelFormatException(file + ": model.vocab[\"" + symbol + "\"] is " + e.getValue()
                        + ", not an id between 0 and " + Short.MAX_VALUE);
            }
            ids.put(symbol.codePointAt(0), id.intValue());
            max = Math.max(max, id.intValue());
        }
        String[] symbols = new String[max + 1];
        for (Map.Entry<Integer, Integer> e : ids.entrySet()) {
            String s = Character.toString(e.getKey());
            if (symbols[e.getValue()] != null) {
                throw new ModelFormatException(file + ": model.vocab gives id " + e.getValue() + " to both \""
                        + symbols[e.getValue()] + "\" and \"" + s + "\"");
            }
            symbols[e.getValue()] = s;
        }
        if (max < 0 || !PAD_SYMBOL.equals(symbols[PAD])) {
            throw new ModelFormatException(file + ": id " + PAD + " must be the pad symbol \"$\", found "
                    + (max < 0 ? "an empty vocabulary" : "\"" + symbols[PAD] + "\""));
        }
        return new KokoroVocabulary(Collections.unmodifiableMap(ids), symbols);
    }

    /** Number of symbols, the pad included. */
    public int size() {
        return ids.size();
    }

    /** The id of a one-code-point symbol, or -1 when it is not in the vocabulary. */
    public int id(int codePoint) {
        return ids.getOrDefault(codePoint, -1);
    }

    /** The symbol of an id, or null when no symbol has it (the ids have gaps). */
    public String symbol(int id) {
        return id >= 0 && id < symbols.length ? symbols[id] : null;
    }

    /** Whether a code point may appear in a phoneme string: a symbol other than the pad. */
    public boolean isPhonemeSymbol(int codePoint) {
        return codePoint != PAD_SYMBOL.charAt(0) && id(codePoint) >= 0;
    }

    /**
     * The network's input for a phoneme string: {@code [0, id(p) for each code point p, 0]}. Code points outside the
     * vocabulary are dropped, as both KModel.forward and the tokenizer's normalizer drop them; the style row is still
     * chosen by the length of the phoneme string.
     *
     * @throws IllegalArgumentException when more than {@value #MAX_PHONEMES} ids remain
     */
    public long[] encode(String phonemes) {
        long[] out = new long[phonemes.length() + 2];
        int n = 1;
        for (int i = 0; i < phonemes.length(); ) {
            int cp = phonemes.codePointAt(i);
            i += Character.charCount(cp);
            int id = id(cp);
            if (id >= 0) out[n++] = id;
        }
        if (n - 1 > MAX_PHONEMES) {
            throw new IllegalArgumentException(n - 1 + " phonemes; Kokoro takes at most " + MAX_PHONEMES
                    + " at once (512 positions less the two pads):" + " split the text");
        }
        out[n++] = PAD;
        out[0] = PAD;
        return Arrays.copyOf(out, n);
    }
}
