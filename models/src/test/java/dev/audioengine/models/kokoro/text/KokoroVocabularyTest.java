package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.ModelFormatException;
import dev.audioengine.models.kokoro.KokoroFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kokoro's vocabulary as read from the tokenizer.json it ships with (a copy of the pinned file in the test resources). */
class KokoroVocabularyTest {
    private static final KokoroVocabulary V = ShippedVocabulary.VOCABULARY;

    @Test
    void theTestCopyIsThePinnedFile() throws Exception {
        byte[] bytes = Files.readAllBytes(ShippedVocabulary.file());
        assertThat(bytes).hasSize((int) KokoroFiles.TOKENIZER.bytes());
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)))
                .isEqualTo(KokoroFiles.TOKENIZER.sha256());
    }

    @Test
    void thePackagesVocabulary() {
        assertThat(V.size()).isEqualTo(115);
        // ids read off tokenizer.json (and hexgrad's config.json vocab) by hand
        assertThat(V.id('$')).isEqualTo(0);
        assertThat(V.id(';')).isEqualTo(1);
        assertThat(V.id(' ')).isEqualTo(16);
        assertThat(V.id(0x0303)).as("combining tilde").isEqualTo(17);
        assertThat(V.id('a')).isEqualTo(43);
        assertThat(V.id('ə')).isEqualTo(83);
        assertThat(V.id('ˈ')).isEqualTo(156);
        assertThat(V.id('ᵻ')).isEqualTo(177);
        assertThat(V.id('g')).as("Kokoro spells g as ɡ (U+0261)").isEqualTo(-1);
        assertThat(V.id('ɡ')).isEqualTo(92);
        assertThat(V.id(0x1F600)).isEqualTo(-1);
        assertThat(V.symbol(7)).as("ids have gaps").isNull();
        assertThat(V.symbol(123)).isEqualTo("ɹ");
    }

    /** Every symbol and id of the file, parsed here by a pattern instead of the JSON reader. */
    @Test
    void everySymbolAndIdIsTheFilesAsAnotherParserReadsIt() throws IOException {
        Map<String, Integer> published = publishedVocabulary();
        assertThat(published).hasSize(115);
        assertThat(V.size()).isEqualTo(published.size());
        published.forEach((symbol, id) -> {
            assertThat(symbol.codePointCount(0, symbol.length()))
                    .as("one code point: %s", symbol)
                    .isEqualTo(1);
            assertThat(V.id(symbol.codePointAt(0)))
                    .as("id of %s (U+%04X)", symbol, symbol.codePointAt(0))
                    .isEqualTo(id);
            assertThat(V.symbol(id)).isEqualTo(symbol);
        });
    }

    @Test
    void thePadIsNoPhonemeSymbol() {
        assertThat(V.isPhonemeSymbol('$')).isFalse();
        assertThat(V.isPhonemeSymbol('ə')).isTrue();
        assertThat(V.isPhonemeSymbol(' ')).isTrue();
        assertThat(V.isPhonemeSymbol('ɫ')).isFalse();
        assertThat(V.isPhonemeSymbol(0x1F600)).isFalse();
    }

    @Test
    void encodePadsBothEndsAndDropsUnknownSymbols() {
        // "həlˈO wˈɜɹld." as misaki writes "Hello world."
        assertThat(V.encode("həlˈO wˈɜɹld."))
                .containsExactly(0, 50, 83, 54, 156, 31, 16, 65, 156, 87, 123, 54, 46, 4, 0);
        assertThat(V.encode("a#b")).as("'#' is not a Kokoro symbol").containsExactly(0, 43, 44, 0);
        assertThat(V.encode("")).containsExactly(0, 0);
        assertThat(V.encode("a".repeat(510))).hasSize(512);
        assertThatThrownBy(() -> V.encode("a".repeat(511))).hasMessageContaining("at most 510");
    }

    @Test
    void malformedVocabulariesAreRejected(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> read(dir, "{\"model\": {}}"))
                .isInstanceOf(ModelFormatException.class)
                .hasMessageContaining("model.vocab");
        assertThatThrownBy(() -> read(dir, "{\"model\": {\"vocab\": {\"$\": 0, \"ab\": 1}}}"))
                .hasMessageContaining("\"ab\" is not one code point");
        assertThatThrownBy(() -> read(dir, "{\"model\": {\"vocab\": {\"$\": 0, \"a\": 1, \"b\": 1}}}"))
                .hasMessageContaining("id 1 to both \"a\" and \"b\"");
        assertThatThrownBy(() -> read(dir, "{\"model\": {\"vocab\": {\"a\": 0}}}"))
                .hasMessageContaining("pad symbol \"$\"");
        assertThatThrownBy(() -> read(dir, "{\"model\": {\"vocab\": {\"$\": 0, \"a\": -3}}}"))
                .hasMessageContaining("not an id");
        assertThat(read(dir, "{\"model\": {\"vocab\": {\"$\": 0, \"\uD83D\uDE00\": 5}}}")
                        .id(0x1F600))
                .as("a symbol beyond the BMP")
                .isEqualTo(5);
    }

    private static KokoroVocabulary read(Path dir, String json) throws Exception {
        return KokoroVocabulary.read(Files.writeString(dir.resolve("tokenizer.json"), json));
    }

    /** model.vocab of the tokenizer.json, read with a pattern: the file is a flat map of one-symbol JSON strings. */
    private static Map<String, Integer> publishedVocabulary() throws IOException {
        String json = Files.readString(ShippedVocabulary.file(), StandardCharsets.UTF_8);
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
