package dev.audioengine.model.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        String nasty = "a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj\u2028k/é😀";
        String json = new JsonWriter().value(nasty).toString();
        assertThat(json).isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0001i\\u001fj\\u2028k/é😀\"");
        assertThat(new TinyJson(json).parseDocument()).isEqualTo(nasty);
    }

    @Test
    void placesCommasBetweenMembersAndElementsOnly() {
        String json = new JsonWriter()
                .beginArray()
                .beginObject()
                .name("a")
                .value(1)
                .name("b")
                .value((String) null)
                .name("c")
                .beginArray()
                .value(true)
                .value(false)
                .endArray()
                .endObject()
                .beginObject()
                .endObject()
                .beginArray()
                .endArray()
                .value("x")
                .endArray()
                .toString();
        assertThat(json).isEqualTo("[{\"a\":1,\"b\":null,\"c\":[true,false]},{},[],\"x\"]");
        @SuppressWarnings("unchecked")
        List<Object> parsed = (List<Object>) new TinyJson(json).parseDocument();
        @SuppressWarnings("unchecked")
        Map<String, Object> first = (Map<String, Object>) parsed.getFirst();
        assertThat(first)
                .containsOnlyKeys("a", "b", "c")
                .containsEntry("a", 1.0)
                .containsEntry("b", null)
                .containsEntry("c", List.of(true, false));
        assertThat(parsed.subList(1, 4)).containsExactly(Map.of(), List.of(), "x");
    }

    @Test
    void writesLongsExactly() {
        assertThat(new JsonWriter().value(Long.MAX_VALUE).toString()).isEqualTo("9223372036854775807");
        assertThat(new JsonWriter().value(-1L).toString()).isEqualTo("-1");
    }

    @Test
    void nonFiniteNumbersAreNullOnlyWhereAsked() {
        assertThat(new JsonWriter()
                        .beginArray()
                        .numberOrNull(Double.NEGATIVE_INFINITY)
                        .numberOrNull(Double.NaN)
                        .numberOrNull(-0.25)
                        .endArray()
                        .toString())
                .isEqualTo("[null,null,-0.25]");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new JsonWriter().number(Double.NEGATIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
