package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.ModelFormatException;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.models.json.ModelJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MoonshineTokenizerTest {
    /** Written by scripts/fixtures/moonshine-tokenizer-fixture.mjs with the real llama-tokenizer-js decode(). */
    private static final Path GOLDEN = Path.of("src/test/resources/moonshine/llama-tokenizer-js-decode.jsonl");

    private static final Path TINY_JSON = Path.of("src/test/resources/moonshine/tiny-tokenizer.json");
    private static final int SPACE = 29871;

    private static MoonshineTokenizer llama;

    @TempDir
    Path tmp;

    @BeforeAll
    static void readVocabulary() throws IOException {
        llama = MoonshineTokenizer.fromLlamaTokenizerJs(LlamaTokenizerJsFile.path());
    }

    private record Golden(String note, int[] ids, String text) {}

    private static List<Golden> golden() throws IOException {
        List<Golden> out = new ArrayList<>();
        for (String line : Files.readAllLines(GOLDEN, StandardCharsets.UTF_8)) {
            Map<?, ?> o = (Map<?, ?>) ModelJson.read(GOLDEN, line.getBytes(StandardCharsets.UTF_8));
            int[] ids = ((List<?>) o.get("ids"))
                    .stream().mapToInt(v -> ((Long) v).intValue()).toArray();
            out.add(new Golden((String) o.get("note"), ids, (String) o.get("text")));
        }
        return out;
    }

    @Test
    void decodesEveryGoldenSequenceAsLlamaTokenizerJsDoes() throws IOException {
        List<Golden> cases = golden();
        assertThat(cases).hasSizeGreaterThan(600);
        assertThat(cases)
                .extracting(Golden::note)
                .contains("encoded surrogate", "emoji from bytes", "random byte tokens");
        List<String> wrong = new ArrayList<>();
        for (Golden g : cases) {
            String got = llama.decode(g.ids());
            if (!got.equals(g.text()))
                wrong.add(g.note() + " " + java.util.Arrays.toString(g.ids()) + ": expected \"" + g.text()
                        + "\", got \"" + got + "\"");
        }
        assertThat(wrong)
                .as("sequences decoded differently from llama-tokenizer-js")
                .isEmpty();
    }

    @Test
    void readsTheWholeLlamaVocabulary() {
        assertThat(llama.vocabularySize()).isEqualTo(32000);
        assertThat(List.of(llama.token(0), llama.token(1), llama.token(2))).containsExactly("<unk>", "<s>", "</s>");
        assertThat(llama.token(3)).isEqualTo("<0x00>");
        assertThat(llama.token(258)).isEqualTo("<0xFF>");
        assertThat(llama.token(SPACE)).isEqualTo("\u2581");
        assertThat(llama.token(31999)).isEqualTo("给");
        assertThatThrownBy(() -> llama.token(32000))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("0 to 31999");
    }

    @Test
    void listAndArrayFormsAgree() {
        assertThat(llama.decode(List.of(1, 15043, 3186, 2)))
                .isEqualTo(llama.decode(1, 15043, 3186, 2))
                .isEqualTo("Hello world");
    }

    @Test
    void specialsAndIdsPastTheVocabularyDecodeToNothing() {
        // ids 32000-32767 are rows of Moonshine's output layer without a token
        int[] plain = {1, 15043, 3186};
        int[] noisy = {1, 0, 15043, 1, 32000, 3186, 32767, Integer.MAX_VALUE, 2, MoonshineTokenizer.EOS};
        assertThat(llama.decode(noisy)).isEqualTo(llama.decode(plain)).isEqualTo("Hello world");
        assertThat(llama.decode(MoonshineTokenizer.BOS, MoonshineTokenizer.EOS)).isEmpty();
    }

    @Test
    void refusesNegativeIdsSayingWhere() {
        assertThatThrownBy(() -> llama.decode(1, 15043, -5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-5")
                .hasMessageContaining("position 2");
    }

    @Test
    void keepsAByteOrderMarkAtTheStart() {
        // TextDecoder would drop it (the fixture leaves this case out); a model that writes one gets it back
        assertThat(llama.decode(30143, 29874)).isEqualTo("\uFEFFa");
        assertThat(llama.decode(3 + 0xEF, 3 + 0xBB, 3 + 0xBF, 29874)).isEqualTo("\uFEFFa");
    }

    @Test
    void recognisesOnlyTwoDigitHexByteTokens() {
        assertThat(MoonshineTokenizer.byteToken("<0x0A>")).isEqualTo(10);
        assertThat(MoonshineTokenizer.byteToken("<0xff>")).isEqualTo(255);
        assertThat(MoonshineTokenizer.byteToken("<0xFFF>")).isEqualTo(-1);
        assertThat(MoonshineTokenizer.byteToken("<0x1>")).isEqualTo(-1);
        assertThat(MoonshineTokenizer.byteToken("<0xG0>")).isEqualTo(-1);
        assertThat(MoonshineTokenizer.byteToken("<0x\u0663\u0663>"))
                .as("Arabic-Indic digits are not hex")
                .isEqualTo(-1);
        assertThat(MoonshineTokenizer.byteToken("<>")).isEqualTo(-1);
    }

    @Test
    void decodesAHandMadeTokenizerJson() throws IOException {
        MoonshineTokenizer t = MoonshineTokenizer.fromTokenizerJson(TINY_JSON);
        assertThat(t.vocabularySize()).isEqualTo(15);
        assertThat(t.token(9)).isEqualTo("\u2581hello");
        assertThat(t.token(13)).isEqualTo("<|note|>");
        assertThat(t.decode(1, 9, 10, 12, 2)).isEqualTo("hello world!\"");
        // ▁ caf <0xC3><0xA9> <0x0A> ▁hello: one leading space goes, the inner one stays
        assertThat(t.decode(1, 7, 11, 4, 5, 3, 9)).isEqualTo("café\n hello");
        assertThat(t.decode(8, 9)).isEqualTo("  hello");
        assertThat(t.decode(14, 0, 9, 13))
                .as("specials vanish, a plain added token is text")
                .isEqualTo("hello<|note|>");
        assertThat(t.decode(7, 6, 10)).as("a truncated UTF-8 lead byte").isEqualTo("\uFFFD world");
        assertThat(t.decode(9, 15, 32767)).isEqualTo("hello");
    }

    @Test
    void bothSourcesAgreeOnTheSameSyntheticVocabulary() throws IOException {
        List<String> vocab = new ArrayList<>(List.of("<unk>", "<s>", "</s>"));
        for (int b = 0; b < 256; b++) vocab.add(String.format("<0x%02X>", b));
        vocab.addAll(List.of(
                "\u2581",
                "\u2581\u2581",
                "\u2581the",
                "\u2581caf",
                "é",
                "日本",
                "\uD83D\uDE00",
                "<>",
                "a\u2581b",
                "\"quoted\\"));
        Path js = tmp.resolve("synthetic-tokenizer.js");
        Files.writeString(
                js,
                "// synthetic\nconst llama_vocab_base64 = \""
                        + Base64.getEncoder()
                                .encodeToString(String.join("\n", vocab).getBytes(StandardCharsets.UTF_8)) + "\"\n");
        Path json = tmp.resolve("synthetic-tokenizer.json");
        Files.writeString(json, tokenizerJson(vocab));

        MoonshineTokenizer fromJs = MoonshineTokenizer.fromLlamaTokenizerJs(js),
                fromJson = MoonshineTokenizer.fromTokenizerJson(json);
        assertThat(fromJson.vocabularySize()).isEqualTo(fromJs.vocabularySize()).isEqualTo(vocab.size());
        for (int id = 0; id < vocab.size(); id++)
            assertThat(fromJson.token(id)).isEqualTo(fromJs.token(id)).isEqualTo(vocab.get(id));
        Random rnd = new Random(7);
        for (int n = 0; n < 2000; n++) {
            int[] ids = rnd.ints(rnd.nextInt(12), 0, vocab.size() + 3).toArray();
            assertThat(fromJson.decode(ids)).as(java.util.Arrays.toString(ids)).isEqualTo(fromJs.decode(ids));
        }
        assertThat(fromJs.decode(1, 259 + 3, 259 + 4, 259 + 8)).isEqualTo("caféa b");
    }

    @Test
    void theLlamaVocabularyAsTokenizerJsonDecodesTheGoldenSequencesAlike() throws IOException {
        List<String> vocab = new ArrayList<>();
        for (int id = 0; id < llama.vocabularySize(); id++) vocab.add(llama.token(id));
        Path json = tmp.resolve("llama-tokenizer.json");
        Files.writeString(json, tokenizerJson(vocab));
        MoonshineTokenizer fromJson = MoonshineTokenizer.fromTokenizerJson(json);
        assertThat(fromJson.vocabularySize()).isEqualTo(32000);
        for (Golden g : golden())
            assertThat(fromJson.decode(g.ids())).as(g.note()).isEqualTo(g.text());
    }

    /** A tokenizer.json in Hugging Face's layout for {@code vocab}, ids 0-2 marked special. */
    private static String tokenizerJson(List<String> vocab) {
        JsonWriter w = new JsonWriter()
                .beginObject()
                .name("version")
                .value("1.0")
                .name("added_tokens")
                .beginArray();
        for (int id = 0; id < 3; id++) {
            w.beginObject()
                    .name("id")
                    .value(id)
                    .name("content")
                    .value(vocab.get(id))
                    .name("special")
                    .value(true)
                    .endObject();
        }
        w.endArray()
                .name("model")
                .beginObject()
                .name("type")
                .value("BPE")
                .name("byte_fallback")
                .value(true)
                .name("vocab")
                .beginObject();
        for (int id = 0; id < vocab.size(); id++) w.name(vocab.get(id)).value(id);
        return w.endObject()
                .name("merges")
                .beginArray()
                .endArray()
                .endObject()
                .endObject()
                .toString();
    }

    @Test
    void explainsAFileWithoutTheVocabularyLiteral() throws IOException {
        Path notIt = Files.writeString(tmp.resolve("other.js"), "export const x = 1;\n");
        assertThatThrownBy(() -> MoonshineTokenizer.fromLlamaTokenizerJs(notIt))
                .isInstanceOf(ModelFormatException.class)
                .hasMessageContaining(notIt.toString())
                .hasMessageContaining("llama_vocab_base64")
                .hasMessageContaining("llama-tokenizer-js@1.2.2");

        Path unclosed = Files.writeString(tmp.resolve("unclosed.js"), "const llama_vocab_base64 = \"PHVuaz4K");
        assertThatThrownBy(() -> MoonshineTokenizer.fromLlamaTokenizerJs(unclosed))
                .isInstanceOf(ModelFormatException.class)
                .hasMessageContaining("not closed");

        Path notBase64 = Files.writeString(tmp.resolve("bad64.js"), "const llama_vocab_base64 = \"***\"");
        assertThatThrownBy(() -> MoonshineTokenizer.fromLlamaTokenizerJs(notBase64))
                .isInstanceOf(ModelFormatException.class)
                .hasMessageContaining("not base64");

        String wrongOrder = Base64.getEncoder().encodeToString("<s>\n<unk>\n</s>\nx".getBytes(StandardCharsets.UTF_8));
        Path reordered =
                Files.writeString(tmp.resolve("order.js"), "const llama_vocab_base64 = \"" + wrongOrder + "\"");
        assertThatThrownBy(() -> MoonshineTokenizer.fromLlamaTokenizerJs(reordered))
                .isInstanceOf(ModelFormatException.class)
                .hasMessageContaining("token 0 is \"<s>\"");

        String notUtf8 = Base64.getEncoder().encodeToString(new byte[] {'<', 'u', 'n', 'k', '>', '\n', (byte) 0xC3});
        Path broken = Files.writeString(tmp.resolve("utf8.js"), "const llama_vocab_base64 = \"" + notUtf8 + "\"");
        assertThatThrownBy(() -> MoonshineTokenizer.fromLlamaTokenizerJs(broken))
                .isInstanceOf(ModelFormatException.class)
                .hasMessageContaining("UTF-8");
    }

    @Test
    void explainsTokenizerJsonFilesItCannotUse() throws IOException {
        String good = Files.readString(TINY_JSON);
        assertRefused(good.replace("\"type\": \"BPE\"", "\"type\": \"Unigram\""), "only a BPE tokenizer");
        assertRefused(good.replace("\"byte_fallback\": true", "\"byte_fallback\": false"), "byte_fallback is not true");
        assertRefused(good.replace("\"caf\": 11", "\"caf\": 16"), "no token has id 11");
        assertRefused(good.replace("\"caf\": 11", "\"caf\": 10"), "gives id 10 to both");
        assertRefused(good.replace("\"caf\": 11", "\"caf\": 100000"), "largest token id is 100000");
        assertRefused(good.replace("\"caf\": 11", "\"caf\": -1"), "must be a token id");
        assertRefused(good.replace("\"caf\": 11", "\"caf\": 11.0"), "must be a token id");
        assertRefused(
                good.replace("\"id\": 0, \"content\": \"<unk>\"", "\"id\": 0, \"content\": \"<s>\""),
                "model.vocab has \"<unk>\" there");
        assertRefused(
                good.replace(
                        "\"id\": 14, \"content\": \"<pad>\", \"special\": true",
                        "\"id\": 14, \"content\": \"<pad>\", \"special\": 1"),
                "special must be true or false");
        assertRefused(
                good.replace("\"vocab\": {", "\"vocab\": [").replace("\"!\\\"\": 12\n    }", "\"!\\\"\": 12\n    ]"),
                "invalid JSON");
        assertRefused(good.replace("\"merges\"", "\"vocab\": {}, \"merges\""), "Duplicate field 'vocab'");
        assertRefused(good.replace("\"model\": {", "\"modelx\": {"), "expected model to be an object, found none");
        assertRefused("[]", "expected a tokenizer.json object");
    }

    private void assertRefused(String json, String expected) throws IOException {
        Path file = Files.writeString(tmp.resolve("tokenizer.json"), json);
        assertThatThrownBy(() -> MoonshineTokenizer.fromTokenizerJson(file))
                .isInstanceOf(ModelFormatException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining(expected);
    }
}
