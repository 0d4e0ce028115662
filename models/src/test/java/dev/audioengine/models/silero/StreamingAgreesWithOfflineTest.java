package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.SpeechEvent;
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
 * Defects 2 and 3: a streaming session fed in ragged pieces and finished must report exactly
 * the segments get_speech_timestamps finds in the same probabilities, min-speech and
 * max-speech included, the last partial chunk and a segment open at the end included.
 */
class StreamingAgreesWithOfflineTest {
    private static AudioEngine engine;
    private static SileroVad vad;

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(1).build();
        vad = SileroVad.load(engine, SileroFixtures.model(SileroVadFamily.V6_FILE));
    }

    @AfterAll
    static void close() {
        if (vad != null) vad.close();
        if (engine != null) engine.close();
    }

    static final List<VadOptions> OPTIONS = List.of(
            VadOptions.DEFAULTS,
            new VadOptions(0.5, Double.NaN, 3000, 100, 30, Double.POSITIVE_INFINITY), // drops every short segment
            new VadOptions(0.5, Double.NaN, 0, 100, 30, Double.POSITIVE_INFINITY), // keeps the 124 ms ones
            new VadOptions(0.5, Double.NaN, 250, 100, 30, 1.0), // max-speech splits, at silences and hard
            new VadOptions(0.4, Double.NaN, 250, 200, 50, 2.5),
            new VadOptions(0.5, 0.45, 0, 0, 0, 0.5),
            new VadOptions(
                    0.3,
                    Double.NaN,
                    100,
                    50,
                    200,
                    Double.POSITIVE_INFINITY), // pads wider than half the silence: gaps shared
            new VadOptions(0.5, Double.NaN, 250, 100, 135_000, 3.0)); // a pad longer than the audio

    /** The events of one stream as segments: each END closes the START before it. */
    static List<SpeechSegment> segments(List<SpeechEvent> events, int rate) {
        List<SpeechSegment> out = new ArrayList<>();
        long start = -1;
        for (SpeechEvent e : events) {
            if (e.kind() == SpeechEvent.Kind.START) {
                assertThat(start)
                        .as("START while a segment is open in %s", events)
                        .isEqualTo(-1);
                start = e.sample();
            } else {
                assertThat(start).as("END without START in %s", events).isNotEqualTo(-1);
                out.add(new SpeechSegment(start, e.sample(), rate));
                start = -1;
            }
        }
        assertThat(start).as("a segment left open after finish in %s", events).isEqualTo(-1);
        return out;
    }

    @Test
    void raggedPiecesThenFinishGiveTheOfflineSegmentsOfTheSameProbabilities() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        List<SileroFixtures.Audio> clips = SileroFixtures.audio();
        for (SileroFixtures.Audio a : List.of(clips.get(0), clips.get(1), clips.get(2), clips.get(5))) {
            // cut the clip at an odd length so that the last chunk is partial
            float[] x = Arrays.copyOf(a.samples(), a.samples().length - 1 - rnd.nextInt(vad.chunkSize(a.rate()) - 1));
            for (VadOptions o : OPTIONS) {
                List<Float> probs = new ArrayList<>();
                List<SpeechEvent> events = new ArrayList<>();
                try (StreamingSession s = vad.stream(a.rate(), o)) {
                    for (int i = 0; i < x.length; ) {
                        int n = Math.min(x.length - i, 1 + rnd.nextInt(2000));
                        StreamingSession.Result r = s.accept(Arrays.copyOfRange(x, i, i + n));
                        for (float p : r.probabilities()) probs.add(p);
                        events.addAll(r.events());
                        i += n;
                    }
                    StreamingSession.Result r = s.finish();
                    for (float p : r.probabilities()) probs.add(p);
                    events.addAll(r.events());
                }
                float[] p = new float[probs.size()];
                for (int i = 0; i < p.length; i++) p[i] = probs.get(i);
                int chunk = vad.chunkSize(a.rate());
                assertThat(p)
                        .as("one probability per chunk, the last partial one included")
                        .hasSize((x.length + chunk - 1) / chunk);
                assertThat(segments(events, a.rate()))
                        .as("%s with %s (seed %d)", a, o, seed)
                        .isEqualTo(SpeechTimestamps.segments(p, chunk, x.length, a.rate(), o));
            }
        }
    }
}
