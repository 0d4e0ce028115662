package dev.audioengine.models.openwakeword;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordStream;
import dev.audioengine.model.task.VadGatedKeywordStream;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VadStream;
import dev.audioengine.models.silero.SileroVad;
import dev.audioengine.models.silero.SileroVadFamily;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * openWakeWord gated by the engine's Silero VAD ({@link VadGatedKeywordStream}, {@code --vad-threshold}), real weights
 * both: a wake word said after a pause is still detected through the gate, and the same audio with a detector that
 * hears only silence detects nothing.
 */
class OpenWakeWordVadGateTest {
    private static AudioEngine engine;
    private static OpenWakeWordSpotter spotter;
    private static SileroVad vad;
    private static float[] audio;

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(1).build();
        spotter = OpenWakeWordSpotter.load(
                engine,
                OpenWakeWordFixtures.mel(),
                OpenWakeWordFixtures.embedding(),
                OpenWakeWordFixtures.heads(),
                "test");
        vad = SileroVad.load(engine, OpenWakeWordFixtures.file(SileroVadFamily.V6_FILE));
        float[] said = OpenWakeWordFixtures.positive(OpenWakeWordFixtures.POSITIVES.getFirst())
                .samples(); // "hey jarvis, what is the weather today"
        audio = new float[16000 + said.length + 16000];
        System.arraycopy(said, 0, audio, 16000, said.length);
    }

    @AfterAll
    static void close() {
        if (vad != null) vad.close();
        if (spotter != null) spotter.close();
        if (engine != null) engine.close();
    }

    /** A Silero stream fed silence in place of the audio: a detector that says "no speech" throughout. */
    private static VadStream deaf(VadStream inner) {
        return new VadStream() {
            public int sampleRate() {
                return inner.sampleRate();
            }

            public int chunkSize() {
                return inner.chunkSize();
            }

            public Result accept(float[] samples) {
                return inner.accept(new float[samples.length]);
            }

            public Result finish() {
                return inner.finish();
            }

            public void reset() {
                inner.reset();
            }

            public void close() {
                inner.close();
            }
        };
    }

    private static List<KeywordDetection> detections(KeywordStream s, List<float[]> scores) {
        List<KeywordDetection> out = new ArrayList<>();
        for (int at = 0; at < audio.length; at += 1280) {
            KeywordStream.Result r = s.accept(audio, at, Math.min(1280, audio.length - at));
            out.addAll(r.detections());
            scores.addAll(List.of(r.scores()));
        }
        KeywordStream.Result r = s.finish();
        out.addAll(r.detections());
        scores.addAll(List.of(r.scores()));
        return out;
    }

    @Test
    void theWakeWordSurvivesTheGateAndADetectorHearingNoSpeechSuppressesIt() {
        KeywordOptions options = KeywordOptions.DEFAULTS.withKeywords(List.of("hey_jarvis", "weather"));
        List<float[]> plainScores = new ArrayList<>(), gatedScores = new ArrayList<>(), deafScores = new ArrayList<>();
        List<KeywordDetection> plain, gated, deafened;
        try (KeywordStream s = spotter.stream(options)) {
            plain = detections(s, plainScores);
        }
        try (KeywordStream s = new VadGatedKeywordStream(
                spotter.stream(options), vad.stream(16000, VadOptions.DEFAULTS), options, 0.5)) {
            gated = detections(s, gatedScores);
        }
        try (KeywordStream s = new VadGatedKeywordStream(
                spotter.stream(options), deaf(vad.stream(16000, VadOptions.DEFAULTS)), options, 0.5)) {
            deafened = detections(s, deafScores);
        }
        System.out.println("no gate: " + plain + "\ngated by Silero at 0.5: " + gated + "\ngated, Silero fed silence: "
                + deafened);
        assertThat(plain).extracting(KeywordDetection::keyword).contains("hey_jarvis");
        // through the gate: hey_jarvis is still detected, and every gated detection is one of the ungated stream's
        // (the gate only removes scores)
        assertThat(gated).extracting(KeywordDetection::keyword).contains("hey_jarvis");
        for (KeywordDetection d : gated)
            assertThat(plain.stream().anyMatch(p -> p.keyword().equals(d.keyword()) && p.frame() <= d.frame()))
                    .as("%s has an ungated detection at or before it", d)
                    .isTrue();
        // the leading second of silence is gated shut: its scores are 0 whatever the keyword stream said
        for (int f = 0; f < 10; f++) assertThat(gatedScores.get(f)).containsOnly(0f);
        // a detector hearing no speech: nothing detected, every score 0, where the ungated scores passed 0.5
        assertThat(deafened).isEmpty();
        assertThat(deafScores).allSatisfy(row -> assertThat(row).containsOnly(0f));
        assertThat(deafScores).hasSameSizeAs(plainScores);
    }
}
