package dev.audioengine.tools.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.weights.json.JsonFormatException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** SbomLicenseCheck on small CycloneDX documents: allowed licences pass, others and missing ones fail. */
class SbomLicenseCheckTest {
    private static final Set<String> ALLOWED = Set.of("Apache-2.0", "MIT", "EPL-2.0");

    private static final String BOM = """
            {"bomFormat":"CycloneDX","specVersion":"1.6","metadata":{"component":{"name":"app"}},
             "components":[
              {"group":"io.helidon","name":"helidon-webserver","version":"4.5.0",
               "licenses":[{"license":{"id":"Apache-2.0"}}]},
              {"group":"com.fasterxml.jackson.core","name":"jackson-core","version":"2.18.9",
               "licenses":[{"license":{"name":"The Apache Software License, Version 2.0","url":"x"}}]},
              {"group":"jakarta.x","name":"dual","version":"1",
               "licenses":[{"expression":"EPL-2.0 OR GPL-2.0-with-classpath-exception"}]},
              {"group":"g","name":"copyleft","version":"1","licenses":[{"license":{"id":"GPL-3.0-only"}}],
               "components":[{"group":"g","name":"nested","version":"2"}]},
              {"group":"g","name":"both","version":"1","licenses":[{"expression":"(MIT AND GPL-3.0-only)"}]},
              {"group":"g","name":"escaped\\u0041\\"","version":"1","licenses":[{"license":{"id":"MIT"}}]}
             ]}
            """;

    @Test
    void readsEveryComponentWithItsLicencesIncludingNestedOnes() throws Exception {
        Map<String, List<String>> c = SbomLicenseCheck.components(BOM);
        assertThat(c).containsEntry("io.helidon:helidon-webserver:4.5.0", List.of("Apache-2.0"));
        assertThat(c).containsEntry("g:nested:2", List.of());
        assertThat(c).containsKey("g:escapedA\":1");
        assertThat(c).hasSize(7);
    }

    @Test
    void onlyComponentsOutsideTheAllowListOrWithoutALicenceFail() throws Exception {
        List<String> problems = SbomLicenseCheck.check(SbomLicenseCheck.components(BOM), ALLOWED);
        assertThat(problems)
                .containsExactlyInAnyOrder(
                        "g:copyleft:1: licence not on the allow-list: GPL-3.0-only",
                        "g:nested:2: no licence recorded",
                        "g:both:1: licence not on the allow-list: (MIT AND GPL-3.0-only)");
    }

    @Test
    void anSbomThatIsNotStrictJsonIsRefusedNotHalfRead() {
        // a second "licenses" key would otherwise let the first (or last) one win unseen
        String duplicate = """
                {"components":[{"group":"g","name":"n","version":"1",
                 "licenses":[{"license":{"id":"MIT"}}],"licenses":[{"license":{"id":"GPL-3.0-only"}}]}]}
                """;
        assertThatThrownBy(() -> SbomLicenseCheck.components(duplicate))
                .isInstanceOf(JsonFormatException.class)
                .hasMessageContaining("licenses");
        assertThatThrownBy(() -> SbomLicenseCheck.components(BOM.substring(0, BOM.length() / 2)))
                .isInstanceOf(JsonFormatException.class);
    }

    @Test
    void expressionsAndPomLicenceNames() {
        assertThat(SbomLicenseCheck.allowed("MIT OR GPL-3.0-only", ALLOWED)).isTrue();
        assertThat(SbomLicenseCheck.allowed("MIT AND EPL-2.0", ALLOWED)).isTrue();
        assertThat(SbomLicenseCheck.allowed("MIT AND GPL-3.0-only", ALLOWED)).isFalse();
        assertThat(SbomLicenseCheck.allowed("The MIT License", ALLOWED)).isTrue();
        assertThat(SbomLicenseCheck.allowed("Some Custom License", ALLOWED)).isFalse();
    }
}
