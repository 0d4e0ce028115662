package dev.audioengine.models.json;

import dev.audioengine.model.ModelFormatException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StrictJsonReaderTest {
    private static final Path FILE = Path.of("some/tokenizer.json");

    private static Object read(String json) throws ModelFormatException {
        return StrictJsonReader.read(FILE, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsEveryKindOfValue() throws ModelFormatException {
        Object v = read(" {\"a\": [1, -0, 2.5, -1e3, 9223372036854775807, 9223372036854775808], \"b\": {\"c\": null},"
                + " \"t\": true, \"f\": false, \"s\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\u2581\"}\n");
        assertThat(v).isInstanceOf(Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) v;
        assertThat(m.keySet()).containsExactly("a", "b", "t", "f", "s");
        assertThat(m.get("a")).isEqualTo(List.of(1L, 0L, 2.5, -1000.0, Long.MAX_VALUE, 9.223372036854775808e18));
        assertThat(m.get("b")).isEqualTo(java.util.Collections.singletonMap("c", null));
        assertThat(m.get("t")).isEqualTo(true);
        assertThat(m.get("f")).isEqualTo(false);
        assertThat(m.get("s")).isEqualTo("x\"\\/\b\f\n\r\té😀\u2581");
        assertThat(read("[]")).isEqualTo(List.of());
        assertThat(read("{}")).isEqualTo(Map.of());
        assertThat(read("\"\"")).isEqualTo("");
    }

    @Test
    void refusesWhatRfc8259Refuses() {
        refused("[1,]", "expected a value");
        refused("{\"a\":1,}", "expected a string key");
        refused("[01]", "leading zeros");
        refused("[1.]", "digits must follow '.'");
        refused("[1e]", "digits must follow the exponent");
        refused("[-]", "invalid number");
        refused("[+1]", "expected a value");
        refused("{a:1}", "expected a string key");
        refused("{\"a\" 1}", "expected ':'");
        refused("[1 2]", "expected ']'");
        refused("\"tab\there\"", "control character U+0009");
        refused("\"\\x\"", "invalid escape \\x");
        refused("\"\\u12g4\"", "four hex digits");
        refused("\"\\u0663\\u0663\"".replace("\\u0663\\u0663", "\\u\u0663\u0663\u0663\u0663"), "four hex digits");
        refused("\"open", "unterminated string");
        refused("[true] x", "after the JSON value");
        refused("[tru]", "expected a value");
        refused("", "unexpected end of file");
        refused("{\"k\":1,\"k\":2}", "duplicate key \"k\"");
    }

    @Test
    void refusesUnpairedSurrogates() {
        refused("\"\\ud83d\"", "unpaired surrogate U+D83D");
        refused("\"\\ude00\\ud83d\"", "unpaired surrogate U+DE00");
    }

    @Test
    void refusesInvalidUtf8AndDeepNesting() {
        assertThatThrownBy(() -> StrictJsonReader.read(FILE, new byte[] {'"', (byte) 0xC3, '"'}))
                .isInstanceOf(ModelFormatException.class).hasMessageContaining("not valid UTF-8");
        char[] open = new char[StrictJsonReader.MAX_DEPTH + 1], close = new char[StrictJsonReader.MAX_DEPTH + 1];
        Arrays.fill(open, '[');
        Arrays.fill(close, ']');
        refused(new String(open) + new String(close), "nested deeper than 64");
    }

    @Test
    void errorsNameTheFileLineAndColumn() {
        assertThatThrownBy(() -> read("{\n  \"a\": 1,\n  \"b\": ]\n}")).isInstanceOf(ModelFormatException.class)
                .hasMessage("some/tokenizer.json: invalid JSON at line 3, column 8: unexpected ']', expected a value");
    }

    private static void refused(String json, String expected) {
        assertThatThrownBy(() -> read(json)).as(json).isInstanceOf(ModelFormatException.class).hasMessageContaining(expected);
    }
}
