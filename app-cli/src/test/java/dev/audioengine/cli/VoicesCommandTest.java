package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.FakeAsrFamily;
import dev.audioengine.cli.testkit.FakeTtsFamily;
import dev.audioengine.cli.testkit.MiniJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code audioengine voices}: the fake model's voices as a table and as JSON. */
class VoicesCommandTest {
    @TempDir
    Path dir;

    private final FakeTtsFamily family = new FakeTtsFamily();

    @Test
    void tableListsNameLanguageAndGender() throws Exception {
        CliRun r = CliRun.run(
                family.registry(),
                "voices",
                "--model",
                FakeTtsFamily.modelFile(dir).toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("""
                NAME       LANGUAGE  GENDER
                af_heart   en-US     female
                bm_george  en-GB     male
                jf_alpha   ja        female
                """);
    }

    @Test
    void jsonIsAnArrayOfVoices() throws Exception {
        CliRun r = CliRun.run(
                family.registry(),
                "voices",
                "--json",
                "--family",
                "fake_tts",
                "--model",
                FakeTtsFamily.modelFile(dir).toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(MiniJson.parse(r.out().strip()))
                .isEqualTo(List.of(
                        Map.of("name", "af_heart", "language", "en-US", "gender", "female"),
                        Map.of("name", "bm_george", "language", "en-GB", "gender", "male"),
                        Map.of("name", "jf_alpha", "language", "ja", "gender", "female")));
    }

    @Test
    void aFamilyWithoutTtsIsAUsageErrorNamingIt() {
        CliRun r = CliRun.run(new FakeAsrFamily().registry(), "voices", "--family", "nope");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("error: unknown model family 'nope'").doesNotContain("\tat ");
    }
}
