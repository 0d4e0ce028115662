package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.models.asr.LiveTranscription;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What live transcription relies on to keep only a short stretch of audio while no segment is open under max-speech:
 * the streaming segmenter's START never points back further than {@link LiveTranscription#startLookback} from the
 * chunk that reported it (or from the end of the audio, at the finish); and why there is no such limit without it.
 */
class StartLookbackTest {
    private static final int RATE = 16_000, CHUNK = 512;

    @Test
    void aStartPointsBackNoFurtherThanTheLookback() {
        for (long seed = 0; seed < 3000; seed++) {
            Random rnd = new Random(seed);
            VadOptions o = new VadOptions(
                    0.3 + 0.4 * rnd.nextDouble(),
                    Double.NaN,
                    rnd.nextInt(600),
                    rnd.nextInt(600),
                    rnd.nextInt(400),
                    0.2 + 3 * rnd.nextDouble());
            long lookback = LiveTranscription.startLookback(o, CHUNK);
            StreamingSegmenter segmenter = new StreamingSegmenter(o, CHUNK, RATE);
            int chunks = 20 + rnd.nextInt(2000);
            for (int c = 0; c < chunks; ) {
                float level = rnd.nextFloat();
                for (int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 80); n > 0 && c < chunks; n--, c++) {
                    List<SpeechEvent> events = new ArrayList<>();
                    segmenter.accept(Math.min(1f, Math.max(0f, level + 0.1f * (float) rnd.nextGaussian())), events);
                    check(events, (c + 1L) * CHUNK, lookback, "seed " + seed + " chunk " + c + " " + o);
                }
            }
            long total = (long) chunks * CHUNK - rnd.nextInt(CHUNK);
            List<SpeechEvent> events = new ArrayList<>();
            segmenter.finish(rnd.nextFloat(), total, events);
            check(events, total, lookback, "seed " + seed + " finish " + o);
        }
    }

    @Test
    void withoutMaxSpeechProbabilitiesBetweenTheThresholdsHoldAStartBackForAsLongAsTheyLast() {
        VadOptions o = new VadOptions(0.5, Double.NaN, 250, 100, 30, Double.POSITIVE_INFINITY);
        assertThat(LiveTranscription.startLookback(o, CHUNK)).isEqualTo(Long.MAX_VALUE);
        StreamingSegmenter segmenter = new StreamingSegmenter(o, CHUNK, RATE);
        List<SpeechEvent> events = new ArrayList<>();
        segmenter.accept(0.9f, events); // speech starts at 0
        segmenter.accept(0.1f, events); // a silence starts before min-speech
        for (int c = 0; c < 1000; c++) segmenter.accept(0.4f, events); // neither speech nor silence: no end, no START
        assertThat(events).isEmpty();
        segmenter.accept(0.9f, events); // speech again: the segment is certain
        assertThat(events).containsExactly(new SpeechEvent(SpeechEvent.Kind.START, 0, RATE));
    }

    private static void check(List<SpeechEvent> events, long reportedAt, long lookback, String what) {
        for (SpeechEvent e : events) {
            if (e.kind() == SpeechEvent.Kind.START) {
                assertThat(reportedAt - e.sample())
                        .as("%s: how far the START %d points back", what, e.sample())
                        .isLessThanOrEqualTo(lookback);
            }
        }
    }
}
