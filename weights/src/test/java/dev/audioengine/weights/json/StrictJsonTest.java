package dev.audioengine.weights.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every refusal of the two hand-written parsers StrictJson replaced (safetensors headers, tokenizer files). */
class StrictJsonTest {
    private static Object parse(String json) throws JsonFormatException {
        return StrictJson.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void valuesOfEveryKind() throws JsonFormatException {
        String head = " {\"a\" : [1, -0, 9223372036854775807, 1.5e-3, 2E+2, 1e400, 18446744073709551616, 2.5, -1e3],"
                + "\"b\":{\"c\":[]},\"d\":";
        JsonObject o = (JsonObject) parse(head
                + "true,\"e\":false,\"f\":null,\"g\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\uD83D\\uDE00\u00e9\u2581\","
                + "\"h\":{\"c\":null}}  \n");
        assertThat(o.keys()).containsExactly("a", "b", "d", "e", "f", "g", "h");
        assertThat(o.get("a"))
                .isEqualTo(List.of(
                        1L,
                        0L,
                        Long.MAX_VALUE,
                        1.5e-3,
                        200.0,
                        Double.POSITIVE_INFINITY,
                        1.8446744073709552E19,
                        2.5,
                        -1000.0));
        assertThat(((JsonObject) o.get("b")).get("c")).isEqualTo(List.of());
        assertThat(o.get("d")).isEqualTo(true);
        assertThat(o.get("e")).isEqualTo(false);
        assertThat(o.has("f")).isTrue();
        assertThat(o.get("f")).isNull();
        assertThat(o.get("g")).isEqualTo("\"\\/\b\f\n\r\tA\ud83d\ude00\u00e9\u2581");
        assertThat(o.get("h")).isEqualTo(Collections.singletonMap("c", null));
        assertThat(o.positionOf("d")).isEqualTo(head.length());
        assertThat(o).isInstanceOf(Map.class);
        assertThat(parse("[]")).isEqualTo(List.of());
        assertThat(parse("{}")).isEqualTo(Map.of());
        assertThat(parse("\"\"")).isEqualTo("");
    }

    @Test
    void refusesWhatRfc8259RefusesAndSaysWhere() {
        refused("{\"a\":1,}", "was expecting double-quote to start field name", 7);
        refused("{a:1}", "was expecting double-quote to start field name", 1);
        refused("[1,]", "Unexpected character (']' (code 93)): expected a value", 3);
        refused("[1 2]", "was expecting comma to separate Array entries", 3);
        refused("{\"a\" 1}", "was expecting a colon to separate field name and value", 5);
        refused("01", "Leading zeroes not allowed", 1);
        refused("[01]", "Leading zeroes not allowed", 2);
        refused("-", "Unexpected end-of-input", 1);
        refused("1.", "Decimal point not followed by a digit", 1);
        refused("1e", "Unexpected end-of-input", 2);
        refused("[+1]", "JSON spec does not allow numbers to have plus signs", 2);
        refused("\"abc", "Unexpected end-of-input in VALUE_STRING", 4);
        refused("\"\\u12g4\"", "expected a hex-digit for character escape sequence", 5);
        refused("\"\\u\u0663\u0663\u0663\u0663\"", "expected a hex-digit for character escape sequence", 3);
        refused("\"\\u12", "Unexpected end-of-input in character escape sequence", 5);
        refused("\"tab\there\"", "Illegal unquoted character ((CTRL-CHAR, code 9)): has to be escaped", 4);
        refused("\"\\x\"", "Unrecognized character escape 'x' (code 120)", 2);
        refused("nul", "Unrecognized token 'nul'", 3);
        refused("[tru]", "Unrecognized token 'tru'", 5);
        refused("'a'", "Unexpected character (''' (code 39)): expected a valid value", 0);
        refused("", "unexpected end of input, expected a value", 0);
        refused("{} {}", "unexpected content after the JSON value", 3);
        refused("[true] x", "unexpected content after the JSON value: Unrecognized token 'x'", 8);
        refused("{\"k\":1,\"k\":2}", "Duplicate field 'k'", 10);
    }

    @Test
    void problemsAreOneLineWithoutJacksonsSourceOrAdvice() {
        assertThatThrownBy(() -> parse("[+1]"))
                .isInstanceOf(JsonFormatException.class)
                .satisfies(e -> assertThat(((JsonFormatException) e).problem())
                        .isEqualTo(
                                "Unexpected character ('+' (code 43)) in numeric value: JSON spec does not allow numbers to have plus signs")
                        .doesNotContain("\n", "Source", "enable"));
        assertThatThrownBy(() -> parse("[{"))
                .isInstanceOf(JsonFormatException.class)
                .satisfies(e ->
                        assertThat(((JsonFormatException) e).problem()).doesNotContain("\n", "Source", "start marker"));
    }

    @Test
    void lineAndColumnCountFromOne() {
        assertThatThrownBy(() -> parse("{\n  \"a\": 1,\n  \"b\": ]\n}"))
                .isInstanceOf(JsonFormatException.class)
                .satisfies(e -> {
                    JsonFormatException j = (JsonFormatException) e;
                    assertThat(j.problem()).startsWith("Unexpected character (']' (code 93)): expected a valid value");
                    assertThat(j.byteOffset()).isEqualTo(19);
                    assertThat(j.line()).isEqualTo(3);
                    assertThat(j.column()).isEqualTo(8);
                });
    }

    @Test
    void refusesUnpairedSurrogatesAtTheStringThatHoldsThem() {
        refused("\"\\ud83d\"", "the string holds an unpaired surrogate U+D83D", 0);
        refused("[1, \"\\ude00\\ud83d\"]", "the string holds an unpaired surrogate U+DE00", 4);
        refused("{\"\\ud83d\":1}", "the string holds an unpaired surrogate U+D83D", 1);
        refused(
                "\"ok\\ud83d\"",
                "the string holds an unpaired surrogate U+D83D",
                0); // a lone high surrogate at the end
    }

    @Test
    void refusesInvalidUtf8AnywhereAtTheOffendingByte() {
        assertThatThrownBy(() -> StrictJson.parse(new byte[] {'"', (byte) 0xC3, '"'}))
                .isInstanceOf(JsonFormatException.class)
                .hasMessageContaining("invalid UTF-8")
                .satisfies(
                        e -> assertThat(((JsonFormatException) e).byteOffset()).isEqualTo(1));
        // an overlong encoding of '/' outside any string
        assertThatThrownBy(() -> StrictJson.parse(new byte[] {'[', '1', ']', (byte) 0xC0, (byte) 0xAF}))
                .isInstanceOf(JsonFormatException.class)
                .hasMessageContaining("invalid UTF-8")
                .satisfies(
                        e -> assertThat(((JsonFormatException) e).byteOffset()).isEqualTo(3));
    }

    @Test
    void nestingIsBoundedSoHostileInputCannotOverflowTheStack() throws JsonFormatException {
        int max = StrictJson.MAX_DEPTH;
        assertThat(parse("[".repeat(max) + "]".repeat(max))).isInstanceOf(List.class);
        refused("[".repeat(max + 1) + "]".repeat(max + 1), "nested deeper than 64 levels", max);
        refused("{\"a\":".repeat(max) + "{}" + "}".repeat(max), "nested deeper than 64 levels", 5L * max);
        refused("[".repeat(100_000), "nested deeper than 64 levels", max);
    }

    @Test
    void valueCountIsBoundedSoHostileInputCannotExhaustTheHeap() throws JsonFormatException {
        int max = StrictJson.MAX_VALUES;
        String within = "[" + "0,".repeat(max - 2) + "0]";
        assertThat((List<?>) parse(within)).hasSize(max - 1);
        String beyond = "[" + "0,".repeat(max) + "0]";
        refused(beyond, "more than " + max + " values", 1 + 2L * (max - 1));
        assertThatThrownBy(() -> StrictJson.parse("[1,2,3]".getBytes(StandardCharsets.UTF_8), 3))
                .isInstanceOf(JsonFormatException.class)
                .hasMessageContaining("more than 3 values");
    }

    private static void refused(String json, String problem, long offset) {
        assertThatThrownBy(() -> parse(json))
                .as(json)
                .isInstanceOf(JsonFormatException.class)
                .satisfies(e -> {
                    JsonFormatException j = (JsonFormatException) e;
                    assertThat(j.problem()).as(json).contains(problem);
                    assertThat(j.byteOffset()).as(json).isEqualTo(offset);
                });
    }
}
