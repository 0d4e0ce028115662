package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.MissingDependencyException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The libespeak-ng binding against Debian's espeak-ng 1.51. Needs libespeak-ng1 and the espeak-ng command (both in
 * scripts/test-packages): without them these tests fail with the install command, they do not skip.
 */
class EspeakNgTest {
    @Test
    void loadsTheLibraryAndItsVoices() {
        EspeakNg espeak = EspeakNg.get();
        assertThat(espeak.version()).startsWith("1.");
        assertThat(espeak.dataPath()).endsWith("espeak-ng-data");
        for (KokoroLanguage l : KokoroLanguage.values())
            assertThat(espeak.languages()).containsKey(l.espeakLanguage());
        // the language resolves to a voice file, which espeak_SetVoiceByName needs: it refuses "en-gb" itself
        assertThat(espeak.languages()).containsEntry("en-gb", "gmw/en").containsEntry("en-us", "gmw/en-US");
    }

    @Test
    void aMissingLibraryNamesTheDebianPackage() {
        Object loaded = EspeakNg.load(List.of("libespeak-ng-absent.so.9"));
        assertThatThrownBy(() -> EspeakNg.require(loaded))
                .isInstanceOf(EspeakUnavailableException.class)
                .isInstanceOf(MissingDependencyException.class) // what the CLI reports as "cannot serve" (exit 1)
                .hasMessageStartingWith(
                        "espeak-ng, which Kokoro's text front end needs, is not installed: libespeak-ng-absent.so.9 not found (")
                .hasMessageContaining("tried libespeak-ng-absent.so.9 on the loader path")
                .hasMessageEndingWith(
                        "; install Debian's libespeak-ng1 and espeak-ng-data (apt-get install libespeak-ng1 espeak-ng-data)");
        assertThat(EspeakNg.SONAMES.getFirst()).isEqualTo("libespeak-ng.so.1");
    }

    @Test
    void aLibraryWithoutEspeaksCallsIsNotTakenForIt() {
        Object loaded = EspeakNg.load(List.of("libc.so.6"));
        assertThatThrownBy(() -> EspeakNg.require(loaded))
                .isInstanceOf(EspeakUnavailableException.class)
                .hasMessageContaining("lacks libespeak-ng's calls")
                .hasMessageContaining("apt-get install libespeak-ng1 espeak-ng-data");
    }

    /** The command line reaches the same translator through another door (speak_lib's phoneme trace, not TextToPhonemes). */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "en-us|Hello world, how are you today? I am fine.",
                "en-us|The quick brown fox jumps over the lazy dog; merchantship, button, water.",
                "en-us|It costs 1,234 dollars and 3.5 cents.",
                "en-gb|Square, near, go, little, four thought.",
                "fr-fr|Bonjour, comment ça va? Un bon vin blanc.",
                "es|El perro de San Roque no tiene rabo.",
                "hi|नमस्ते, आप कैसे हैं?",
                "pt-br|Não, obrigado. O coração da mãe."
            })
    void phonemesAreWhatTheCommandLineWrites(String language, String text) throws Exception {
        String ours = EspeakNg.get().textToPhonemes(language, text).replace(EspeakNg.TIE, '^');
        assertThat(ours).isEqualTo(commandLine(language, text));
    }

    @Test
    void anUnknownLanguageIsRefusedByName() {
        assertThatThrownBy(() -> EspeakNg.get().textToPhonemes("xx-nowhere", "hello"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no voice for language \"xx-nowhere\"");
    }

    @Test
    void aNulDoesNotCutTheTextShort() {
        assertThat(EspeakNg.get().textToPhonemes("en-us", "hello\0world"))
                .isEqualTo(EspeakNg.get().textToPhonemes("en-us", "hello world"));
        assertThat(EspeakNg.get().textToPhonemes("en-us", " \n\t")).isEmpty();
    }

    @Test
    void switchingVoicesBackAndForthKeepsEachVoicesOutput() {
        EspeakNg e = EspeakNg.get();
        String us = e.textToPhonemes("en-us", "hello water"), gb = e.textToPhonemes("en-gb", "hello water");
        assertThat(us).isNotEqualTo(gb);
        for (int i = 0; i < 3; i++) {
            assertThat(e.textToPhonemes("en-us", "hello water")).isEqualTo(us);
            assertThat(e.textToPhonemes("fr-fr", "bonjour")).isNotBlank();
            assertThat(e.textToPhonemes("en-gb", "hello water")).isEqualTo(gb);
        }
    }

    /** {@code espeak-ng -q --ipa --tie=^ -v LANGUAGE -f FILE}, its clauses (one a line) joined by single spaces. */
    static String commandLine(String language, String text) throws IOException, InterruptedException {
        Path file = Files.createTempFile("espeak-cli", ".txt");
        try {
            Files.writeString(
                    file, text, StandardCharsets.UTF_8); // a file, not an argument: the locale may not be UTF-8
            Process p;
            try {
                p = new ProcessBuilder("espeak-ng", "-q", "--ipa", "--tie=^", "-v", language, "-f", file.toString())
                        .redirectErrorStream(true)
                        .start();
            } catch (IOException e) {
                throw new AssertionError(
                        "the espeak-ng command is missing: install Debian's espeak-ng (apt-get install espeak-ng)", e);
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor())
                    .as("espeak-ng exit status; it wrote: %s", out)
                    .isZero();
            return out.strip().replaceAll("\\s+", " ");
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
