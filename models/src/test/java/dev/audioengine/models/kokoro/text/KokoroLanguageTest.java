package dev.audioengine.models.kokoro.text;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KokoroLanguageTest {
    @ParameterizedTest
    @CsvSource({"a,AMERICAN_ENGLISH", "af_heart,AMERICAN_ENGLISH", "am_michael,AMERICAN_ENGLISH", "bm_george,BRITISH_ENGLISH", "en-gb,BRITISH_ENGLISH",
            "ef_dora,SPANISH", "ff_siwis,FRENCH", "hf_alpha,HINDI", "im_nicola,ITALIAN", "pm_alex,BRAZILIAN_PORTUGUESE", "P,BRAZILIAN_PORTUGUESE"})
    void codesAndVoiceNamesNameTheirLanguage(String given, KokoroLanguage expected) {
        assertThat(KokoroLanguage.of(given)).isEqualTo(expected);
    }

    @Test
    void japaneseAndMandarinSayWhyNot() {
        assertThatThrownBy(() -> KokoroLanguage.of("jf_alpha")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("misaki's kana");
        assertThatThrownBy(() -> KokoroLanguage.of("z")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("misaki's pinyin");
        assertThatThrownBy(() -> KokoroLanguage.of("xx")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no Kokoro language");
        assertThatThrownBy(() -> KokoroLanguage.of("")).isInstanceOf(IllegalArgumentException.class);
    }
}
