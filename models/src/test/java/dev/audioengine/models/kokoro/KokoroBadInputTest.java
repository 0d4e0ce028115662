package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SynthesisOptions;
import java.io.Reader;
import java.io.StringReader;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a library user meets with bad input to Kokoro (loaded as users load it): text with nothing to say, unknown
 * voices, languages the front end cannot speak, speeds out of range, and a long text, which is read only as far as the
 * pieces asked for. (Emoji and symbols are said by their names: KokoroPhonemizerTest.)
 */
class KokoroBadInputTest {
    private static final String SUPPORTED =
            "a (American English), b (British English), e (Spanish), f (French), h (Hindi), i (Italian)"
                    + " or p (Brazilian Portuguese)";
    private static AudioEngine engine;
    private static SpeechSynthesizer tts;

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(2).build();
        tts = Models.load(engine, "kokoro", SpeechSynthesizer.class);
    }

    @AfterAll
    static void close() {
        tts.close();
        engine.close();
    }

    @Test
    void textWithNothingToSayIsRefusedAndStreamsNothing() {
        for (String text : List.of("", "   \n\n\t", "!!! ...", "?!", "— ( ) “ ”", "※ ※", "\u200b")) {
            assertThatThrownBy(() -> tts.synthesize(text, SynthesisOptions.DEFAULTS))
                    .as("[%s]", text)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("the text has nothing to say: no speakable characters");
            assertThat(tts.stream(new StringReader(text), SynthesisOptions.DEFAULTS)
                            .hasNext())
                    .as("[%s]", text)
                    .isFalse();
        }
    }

    @Test
    void anUnknownVoiceListsTheVoices() {
        assertThatThrownBy(() -> tts.synthesize("Hello.", SynthesisOptions.DEFAULTS.withVoice("xx_nobody")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown voice 'xx_nobody'; Kokoro's voices: af_alloy, ")
                .hasMessageContaining("af_heart")
                .hasMessageEndingWith("zm_yunyang");
    }

    @Test
    void languagesTheFrontEndCannotSpeakNameThoseItCan() {
        assertThatThrownBy(() -> tts.synthesize("Konnichiwa.", SynthesisOptions.DEFAULTS.withVoice("jf_alpha")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Japanese voices need misaki's kana phonemes")
                .hasMessageEndingWith(SUPPORTED);
        assertThatThrownBy(
                        () -> tts.stream(new StringReader("Ni hao."), SynthesisOptions.DEFAULTS.withVoice("zm_yunxi")))
                .as("refused when the stream is asked for, before any text is read")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Mandarin")
                .hasMessageEndingWith(SUPPORTED);
    }

    @Test
    void aSpeedOutsideItsRangeIsRefusedSayingTheRange() {
        for (double speed : new double[] {0, 0.24, 4.01, 100, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> SynthesisOptions.DEFAULTS.withSpeed(speed))
                    .as("speed %s", speed)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("speed must be in [0.25, 4], got " + speed);
        }
        assertThat(SynthesisOptions.DEFAULTS.withSpeed(0.25).speed()).isEqualTo(0.25);
        assertThat(SynthesisOptions.DEFAULTS.withSpeed(4).speed()).isEqualTo(4);
    }

    /** 100 kB of short paragraphs: two pieces come out having read a few kB of it, the buffer's worth. */
    @Test
    void aLongTextIsReadOnlyAsFarAsThePiecesAskedFor() {
        String paragraph = "Hello there.\n\n";
        int repeats = 100_000 / paragraph.length();
        CountingReader text = new CountingReader(new StringReader(paragraph.repeat(repeats)));
        Iterator<SpeechSynthesizer.SpeechPiece> pieces = tts.stream(text, SynthesisOptions.DEFAULTS);
        for (int i = 0; i < 2; i++) {
            SpeechSynthesizer.SpeechPiece p = pieces.next();
            assertThat(p.text()).isEqualTo("Hello there.");
            assertThat(p.seconds()).isBetween(0.4, 3.0);
        }
        assertThat(text.read)
                .as("characters read of %d", paragraph.length() * repeats)
                .isPositive()
                .isLessThan(10_000);
    }

    private static final class CountingReader extends java.io.FilterReader {
        long read;

        CountingReader(Reader in) {
            super(in);
        }

        @Override
        public int read(char[] b, int off, int len) throws java.io.IOException {
            int n = super.read(b, off, len);
            if (n > 0) read += n;
            return n;
        }
    }
}
