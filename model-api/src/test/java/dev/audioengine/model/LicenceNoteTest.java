package dev.audioengine.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A pull says so when the weights are not free for any use. */
class LicenceNoteTest {
    private static ModelVariant variant(String licence) {
        ModelFile f = new ModelFile(
                "x.onnx",
                "0".repeat(64),
                1,
                List.of(new ModelSource.Https(java.net.URI.create("https://example.org/x"))));
        return new ModelVariant("x", List.of(), Task.KWS, "x", List.of(f), licence);
    }

    @Test
    void nonCommercialLicencesAreNamedAndOthersAreNot() {
        assertThat(ModelLoader.licenceNote(variant("CC-BY-NC-SA-4.0")))
                .isEqualTo("; its weights are licensed CC-BY-NC-SA-4.0: not for commercial use");
        assertThat(ModelLoader.licenceNote(variant("MIT"))).isEmpty();
        assertThat(ModelLoader.licenceNote(variant("Apache-2.0"))).isEmpty();
    }
}
