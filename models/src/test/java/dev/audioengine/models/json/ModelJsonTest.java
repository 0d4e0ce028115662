package dev.audioengine.models.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.ModelFormatException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The refusals themselves are StrictJsonTest's (weights); this pins how a model file's error reads. */
class ModelJsonTest {
    private static final Path FILE = Path.of("some/tokenizer.json");

    private static Object read(String json) throws ModelFormatException {
        return ModelJson.read(FILE, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsPlainJavaValues() throws ModelFormatException {
        assertThat(read("{\"a\": [1, 2.5, \"x\", true, null]}"))
                .isEqualTo(Map.of("a", java.util.Arrays.asList(1L, 2.5, "x", true, null)));
        assertThat(read("[]")).isEqualTo(List.of());
    }

    @Test
    void errorsNameTheFileLineAndColumn() {
        assertThatThrownBy(() -> read("{\n  \"a\": 1,\n  \"b\": ]\n}"))
                .isInstanceOf(ModelFormatException.class)
                .hasMessage(
                        "some/tokenizer.json: invalid JSON at line 3, column 8: Unexpected character (']' (code 93)):"
                                + " expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
        assertThatThrownBy(() -> read("{\"k\":1,\n\"k\":2}"))
                .isInstanceOf(ModelFormatException.class)
                .hasMessage("some/tokenizer.json: invalid JSON at line 2, column 4: Duplicate field 'k'");
        assertThatThrownBy(() -> read("[\"\\ud83d\"]"))
                .isInstanceOf(ModelFormatException.class)
                .hasMessage(
                        "some/tokenizer.json: invalid JSON at line 1, column 2: the string holds an unpaired surrogate U+D83D");
        assertThatThrownBy(() -> ModelJson.read(FILE, new byte[] {'"', (byte) 0xC3, '"'}))
                .isInstanceOf(ModelFormatException.class)
                .hasMessage("some/tokenizer.json: invalid JSON at line 1, column 2: invalid UTF-8");
    }
}
