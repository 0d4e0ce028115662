package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KokoroLanguageTest {
    @ParameterizedTest
    @CsvSource({
        "a,AMERICAN_ENGLISH",
        "af_heart,AMERICAN_ENGLISH",
        "am_michael,AMERICAN_ENGLISH",
        "bm_george,BRITISH_ENGLISH",
        "en-gb,BRITISH_ENGLISH",
        "ef_dora,SPANISH",
        "ff_siwis,FRENCH",
        "hf_alpha,HINDI",
        "im_nicola,ITALIAN",
        "pm_alex,BRAZILIAN_PORTUGUESE",
        "P,BRAZILIAN_PORTUGUESE"
    })
    void codesAndVoiceNamesNameTheirLanguage(String given, KokoroLanguage expected) {
        assertThat(KokoroLanguage.of(given)).isEqualTo(expected);
    }

    private static final String SUPPORTED =
            "a (American English), b (British English), e (Spanish), f (French), h (Hindi), i (Italian)"
                    + " or p (Brazilian Portuguese)";

    /** A language the front end cannot speak says why and names, in words, every one it can. */
    @Test
    void japaneseAndMandarinSayWhyNotAndWhatIsSupported() {
        assertThatThrownBy(() -> KokoroLanguage.of("jf_alpha"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "\"jf_alpha\": Kokoro's Japanese voices need misaki's kana phonemes, which espeak-ng cannot give; this front end"
                                + " speaks the voices whose names start with " + SUPPORTED);
        assertThatThrownBy(() -> KokoroLanguage.of("z"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("misaki's pinyin")
                .hasMessageEndingWith(SUPPORTED);
        assertThatThrownBy(() -> KokoroLanguage.of("xx"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no Kokoro language")
                .hasMessageEndingWith(SUPPORTED);
        assertThatThrownBy(() -> KokoroLanguage.of("qf_nobody"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith(SUPPORTED);
        assertThatThrownBy(() -> KokoroLanguage.of("")).isInstanceOf(IllegalArgumentException.class);
    }
}
