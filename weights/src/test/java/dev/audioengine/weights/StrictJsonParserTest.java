package dev.audioengine.weights;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StrictJsonParserTest {
    private static final Path FILE = Path.of("header.json");

    private static Object parse(String json) throws WeightFormatException {
        return StrictJsonParser.parse(FILE, 100, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void valuesOfEveryKind() throws WeightFormatException {
        JsonObject o = (JsonObject) parse(" {\"a\" : [1, -0, 9223372036854775807, 1.5e-3, 2E+2, 1e400, 18446744073709551616],"
                + "\"b\":{\"c\":[]},\"d\":true,\"e\":false,\"f\":null,\"g\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\uD83D\\uDE00\u00e9\"}  ");
        assertThat(o.keys()).containsExactly("a", "b", "d", "e", "f", "g");
        assertThat(o.get("a")).isEqualTo(List.of(1L, 0L, Long.MAX_VALUE, 1.5e-3, 200.0, Double.POSITIVE_INFINITY, 1.8446744073709552E19));
        assertThat(((JsonObject) o.get("b")).get("c")).isEqualTo(List.of());
        assertThat(o.get("d")).isEqualTo(true);
        assertThat(o.get("e")).isEqualTo(false);
        assertThat(o.has("f")).isTrue();
        assertThat(o.get("f")).isNull();
        assertThat(o.get("g")).isEqualTo("\"\\/\b\f\n\r\tA\ud83d\ude00\u00e9");
        assertThat(o.positionOf("d")).isEqualTo(" {\"a\" : [1, -0, 9223372036854775807, 1.5e-3, 2E+2, 1e400, 18446744073709551616],\"b\":{\"c\":[]},\"d\":".length());
    }

    @Test
    void malformedInputNamesTheAbsoluteOffset() {
        String[][] cases = {
                {"{\"a\":1,}", "7", "expected a string key"},
                {"[1 2]", "3", "expected ']' or ',' in array"},
                {"{\"a\" 1}", "5", "expected ':'"},
                {"01", "0", "leading zeros"},
                {"-", "0", "invalid number"},
                {"1.", "0", "digits must follow '.'"},
                {"1e", "0", "digits must follow the exponent"},
                {"\"abc", "0", "unterminated string"},
                {"\"\\u12g4\"", "1", "four hex digits"},
                {"\"\\u12", "1", "truncated \\u escape"},
                {"nul", "0", "expected null"},
                {"", "0", "unexpected end of header"},
                {"{} {}", "3", "after the JSON value"},
                {"'a'", "0", "unexpected ''', expected a value"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> parse(c[0])).as(c[0]).isInstanceOf(WeightFormatException.class)
                    .hasMessageContaining(c[2])
                    .satisfies(e -> assertThat(((WeightFormatException) e).offset()).as(c[0]).isEqualTo(100 + Long.parseLong(c[1])));
        }
    }

    @Test
    void nestingIsBoundedSoHostileInputCannotOverflowTheStack() throws WeightFormatException {
        assertThat(parse("[".repeat(StrictJsonParser.MAX_DEPTH) + "]".repeat(StrictJsonParser.MAX_DEPTH))).isInstanceOf(List.class);
        assertThatThrownBy(() -> parse("[".repeat(100_000))).isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("nested deeper than 64");
    }

    @Test
    void valueCountIsBoundedSoHostileInputCannotExhaustTheHeap() throws WeightFormatException {
        String within = "[" + "0,".repeat(StrictJsonParser.MAX_VALUES - 2) + "0]";
        assertThat((List<?>) parse(within)).hasSize(StrictJsonParser.MAX_VALUES - 1);
        String beyond = "[" + "0,".repeat(StrictJsonParser.MAX_VALUES) + "0]";
        assertThatThrownBy(() -> parse(beyond)).isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("more than " + StrictJsonParser.MAX_VALUES + " values");
    }
}
