package dev.audioengine.model.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hub answer's JSON reader on the shapes a real model API answer has beyond what the store reads: nested objects
 * and arrays, escapes, booleans, null, fractions and integers past a long.
 */
class HubJsonTest {
    @Test
    void readsAModelInfoShapedDocument() {
        String doc = """
                {"_id":"x","id":"openai/whisper-base","private":false,"gated":false,"disabled":null,
                 "downloads":123456,"likes":-1,"score":1.5e-3,"huge":123456789012345678901234567890,
                 "cardData":{"language":["en","zh"],"tags":[],"widget":[{"src":"a\\u00e9\\"b\\\\c\\/d"}]},
                 "sha":"e37978b90ca9030d5170a5c07aadb050351a65bb",
                 "siblings":[{"rfilename":"model.safetensors","size":134,"blobId":"ab",
                              "lfs":{"sha256":"00ff","size":290403936,"pointerSize":134}}]}
                """;
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) new HuggingFaceHub.Json(doc).document();
        assertThat(m.get("sha")).isEqualTo("e37978b90ca9030d5170a5c07aadb050351a65bb");
        assertThat(m.get("private")).isEqualTo(false);
        assertThat(m.get("disabled")).isNull();
        assertThat(m.get("downloads")).isEqualTo(123456L);
        assertThat(m.get("likes")).isEqualTo(-1L);
        assertThat(m.get("score")).isEqualTo(1.5e-3);
        assertThat(m.get("huge")).isEqualTo(1.2345678901234568e29);
        @SuppressWarnings("unchecked")
        var widget = (List<Map<String, Object>>) ((Map<String, Object>) m.get("cardData")).get("widget");
        assertThat(widget.getFirst().get("src")).isEqualTo("a\u00e9\"b\\c/d");
        @SuppressWarnings("unchecked")
        var lfs = (Map<String, Object>)
                ((List<Map<String, Object>>) m.get("siblings")).getFirst().get("lfs");
        assertThat(lfs.get("size")).isEqualTo(290403936L);
    }

    @Test
    void refusesWhatIsNotJson() {
        assertThatThrownBy(() -> new HuggingFaceHub.Json("<html>").document()).hasMessageContaining("character 0");
        assertThatThrownBy(() -> new HuggingFaceHub.Json("{\"a\":1} x").document())
                .hasMessageContaining("trailing");
        assertThatThrownBy(() -> new HuggingFaceHub.Json("{\"a\":\"open").document())
                .hasMessageContaining("unterminated");
    }
}
