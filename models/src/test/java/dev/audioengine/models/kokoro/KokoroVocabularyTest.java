package dev.audioengine.models.kokoro;

import dev.audioengine.model.ModelFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KokoroVocabularyTest {
    @Test
    void thePackagesVocabulary() throws Exception {
        KokoroVocabulary v = KokoroVocabulary.read(KokoroFixtures.tokenizer());
        assertThat(v.size()).isEqualTo(115);
        // ids read off tokenizer.json (and hexgrad's config.json vocab) by hand
        assertThat(v.id('$')).isEqualTo(0);
        assertThat(v.id(';')).isEqualTo(1);
        assertThat(v.id(' ')).isEqualTo(16);
        assertThat(v.id(0x0303)).as("combining tilde").isEqualTo(17);
        assertThat(v.id('a')).isEqualTo(43);
        assertThat(v.id('ə')).isEqualTo(83);
        assertThat(v.id('ˈ')).isEqualTo(156);
        assertThat(v.id('ᵻ')).isEqualTo(177);
        assertThat(v.id('g')).as("Kokoro spells g as ɡ (U+0261)").isEqualTo(-1);
        assertThat(v.id('ɡ')).isEqualTo(92);
        assertThat(v.symbol(7)).as("ids have gaps").isNull();
        assertThat(v.symbol(123)).isEqualTo("ɹ");
    }

    @Test
    void encodePadsBothEndsAndDropsUnknownSymbols() throws Exception {
        KokoroVocabulary v = KokoroVocabulary.read(KokoroFixtures.tokenizer());
        // "həlˈO wˈɜɹld." as misaki writes "Hello world."
        assertThat(v.encode("həlˈO wˈɜɹld.")).containsExactly(0, 50, 83, 54, 156, 31, 16, 65, 156, 87, 123, 54, 46, 4, 0);
        assertThat(v.encode("a#b")).as("'#' is not a Kokoro symbol").containsExactly(0, 43, 44, 0);
        assertThat(v.encode("")).containsExactly(0, 0);
        assertThat(v.encode("a".repeat(510))).hasSize(512);
        assertThatThrownBy(() -> v.encode("a".repeat(511))).hasMessageContaining("at most 510");
    }

    @Test
    void malformedVocabulariesAreRejected(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> read(dir, "{\"model\": {}}")).isInstanceOf(ModelFormatException.class).hasMessageContaining("model.vocab");
        assertThatThrownBy(() -> read(dir, "{\"model\": {\"vocab\": {\"$\": 0, \"ab\": 1}}}")).hasMessageContaining("\"ab\" is not one code point");
        assertThatThrownBy(() -> read(dir, "{\"model\": {\"vocab\": {\"$\": 0, \"a\": 1, \"b\": 1}}}")).hasMessageContaining("id 1 to both \"a\" and \"b\"");
        assertThatThrownBy(() -> read(dir, "{\"model\": {\"vocab\": {\"a\": 0}}}")).hasMessageContaining("pad symbol \"$\"");
        assertThatThrownBy(() -> read(dir, "{\"model\": {\"vocab\": {\"$\": 0, \"a\": -3}}}")).hasMessageContaining("not an id");
        assertThat(read(dir, "{\"model\": {\"vocab\": {\"$\": 0, \"\uD83D\uDE00\": 5}}}").id(0x1F600)).as("a symbol beyond the BMP").isEqualTo(5);
    }

    private static KokoroVocabulary read(Path dir, String json) throws Exception {
        Path f = Files.writeString(dir.resolve("tokenizer.json"), json);
        return KokoroVocabulary.read(f);
    }
}
