package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.Resampler;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SynthesisOptions;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Kokoro as users load it (Models.load → SpeechSynthesizer): text to 24 kHz speech through espeak-ng and the network,
 * heard back by Moonshine; the errors a user meets (an unknown voice lists the voices, text with nothing to say).
 */
class KokoroSynthesizerTest {
    @Test
    void textBecomesSpeechThatMoonshineUnderstands() throws Exception {
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                SpeechSynthesizer tts = Models.load(engine, "kokoro", SpeechSynthesizer.class);
                SpeechRecognizer asr = Models.load(engine, "moonshine-tiny", SpeechRecognizer.class)) {
            assertThat(tts.voices())
                    .hasSize(54)
                    .anyMatch(v -> v.name().equals("af_heart")
                            && v.language().equals("en-US")
                            && v.gender().equals("female"));
            SpeechSynthesizer.SpeechAudio audio =
                    tts.synthesize("Hello world. How are you today?", SynthesisOptions.DEFAULTS);
            assertThat(audio.sampleRate()).isEqualTo(24000);
            assertThat(audio.pieces()).isNotEmpty();
            assertThat(audio.seconds()).isBetween(1.0, 6.0);
            float[] heard = Resampler.resample(audio.samples(), 24000, 16000);
            String text = asr.transcribe(heard, AsrOptions.DEFAULTS)
                    .text()
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^a-z ]", "")
                    .strip();
            System.out.println("[kokoro → moonshine] \"" + text + "\"");
            assertThat(text).isEqualTo("hello world how are you today");

            assertThatThrownBy(() -> tts.synthesize("Hello.", SynthesisOptions.DEFAULTS.withVoice("xx_nobody")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown voice 'xx_nobody'")
                    .hasMessageContaining("af_heart");
            assertThatThrownBy(() -> tts.synthesize(" ... ", SynthesisOptions.DEFAULTS))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("nothing to say");
        }
    }
}
