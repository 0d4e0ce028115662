package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.output.SpeechAudio;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The offline push API: a long clip fed in odd block sizes gives exactly the probabilities of
 * the whole-array call (the same batches of OFFLINE_BATCH chunks, state and context carried),
 * and the segments of get_speech_timestamps on them; ORT is the reference for the probabilities.
 */
class OfflineSessionTest {
    private static AudioEngine engine;
    private static SileroVad vad;

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(1).build();
        vad = SileroVad.load(engine, SileroFixtures.model(SileroVadFamily.V5_FILE));
    }

    @AfterAll
    static void close() {
        if (vad != null) vad.close();
        if (engine != null) engine.close();
    }

    @Test
    void oddBlocksGiveTheWholeArrayProbabilitiesAndSegments() throws Exception {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        SileroFixtures.Audio a = SileroFixtures.audio().get(4); // 21 s: three batches of 512 chunks
        float[] x = Arrays.copyOf(a.samples(), a.samples().length - 77);
        float[] whole = vad.probabilities(x, a.rate());
        float[] ort;
        try (OrtSilero o = new OrtSilero(SileroFixtures.model(SileroVadFamily.V5_FILE), a.rate())) {
            ort = o.probabilities(x);
        }
        assertThat(SileroParityTest.maxAbsDiff(whole, ort)).isLessThan(1e-4);
        VadOptions options = new VadOptions(0.5, Double.NaN, 250, 100, 30, 2.0);
        for (int pass = 0; pass < 3; pass++) {
            List<Float> probs = new ArrayList<>();
            List<SpeechSegment> segments = new ArrayList<>();
            try (OfflineSession s = vad.offline(a.rate(), options)) {
                for (int i = 0; i < x.length; ) {
                    int n = Math.min(x.length - i, pass == 0 ? 1 + rnd.nextInt(997) : 1 + rnd.nextInt(200_000));
                    // blocks given as a slice of a larger array
                    float[] holder = new float[n + 10];
                    System.arraycopy(x, i, holder, 3, n);
                    dev.audioengine.model.task.OfflineVad.Result r = s.accept(holder, 3, n);
                    for (float p : r.probabilities()) probs.add(p);
                    segments.addAll(r.segments());
                    i += n;
                }
                assertThat(s.samples()).isEqualTo(x.length);
                dev.audioengine.model.task.OfflineVad.Result r = s.finish();
                for (float p : r.probabilities()) probs.add(p);
                segments.addAll(r.segments());
                assertThatThrownBy(() -> s.accept(new float[1]))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("finished");
            }
            float[] got = new float[probs.size()];
            for (int i = 0; i < got.length; i++) got[i] = probs.get(i);
            assertThat(got).as("pass %d seed %d", pass, seed).isEqualTo(whole);
            assertThat(segments)
                    .isEqualTo(SpeechTimestamps.segments(whole, 512, x.length, a.rate(), options))
                    .isEqualTo(vad.segments(x, a.rate(), options));
        }
    }

    @Test
    void emptyAudioHasNoProbabilitiesAndNoSegments() {
        try (OfflineSession s = vad.offline(16000, VadOptions.DEFAULTS)) {
            dev.audioengine.model.task.OfflineVad.Result r = s.finish();
            assertThat(r.probabilities()).isEmpty();
            assertThat(r.segments()).isEmpty();
        }
        assertThat(vad.probabilities(new float[0], 8000)).isEmpty();
    }

    @Test
    void speechSamplesAreTheSegmentsJoined() {
        SileroFixtures.Audio a = SileroFixtures.audio().get(0);
        List<SpeechSegment> segs = vad.segments(a.samples(), a.rate(), VadOptions.DEFAULTS);
        float[] speech = vad.speechSamples(a.samples(), a.rate(), VadOptions.DEFAULTS);
        assertThat(segs).isNotEmpty();
        int k = 0;
        for (SpeechSegment s : segs) {
            for (long i = s.startSample(); i < s.endSample(); i++)
                assertThat(speech[k++]).isEqualTo(a.samples()[(int) i]);
        }
        assertThat(k).isEqualTo(speech.length);
        assertThat(SpeechAudio.collect(a.samples(), List.of())).isEmpty();
        assertThatThrownBy(() -> SpeechAudio.collect(new float[10], List.of(new SpeechSegment(5, 11, 16000))))
                .hasMessageContaining("outside the 10 samples");
    }
}
