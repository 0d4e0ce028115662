package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-worked cases of get_speech_timestamps' rules at 16 kHz, 512-sample chunks. */
class SpeechTimestampsTest {
    private static final int W = 512, SR = 16000;

    private static float[] probs(Object... runs) { // value, count, value, count, ...
        int n = 0;
        for (int i = 1; i < runs.length; i += 2) n += (Integer) runs[i];
        float[] p = new float[n];
        int k = 0;
        for (int i = 0; i < runs.length; i += 2)
            for (int j = 0; j < (Integer) runs[i + 1]; j++) p[k++] = ((Double) runs[i]).floatValue();
        return p;
    }

    private static List<SpeechSegment> segs(long... bounds) {
        java.util.ArrayList<SpeechSegment> out = new java.util.ArrayList<>();
        for (int i = 0; i < bounds.length; i += 2) out.add(new SpeechSegment(bounds[i], bounds[i + 1], SR));
        return out;
    }

    @Test
    void endsAfterMinSilenceDropsShortSpeechAndPads() {
        // speech from chunk 2; silence from chunk 22 ends it at 11264 once 1600 samples passed; the burst at 32..34 is
        // too short
        float[] p = probs(0.0, 2, 0.9, 20, 0.1, 10, 0.9, 3, 0.0, 10);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, VadOptions.DEFAULTS))
                .isEqualTo(segs(544, 11744));
    }

    @Test
    void silenceShorterThanMinSilenceDoesNotSplit() {
        float[] p = probs(0.9, 10, 0.1, 4, 0.9, 10, 0.1, 6);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, VadOptions.DEFAULTS))
                .isEqualTo(segs(0, 24 * 512 + 480));
    }

    @Test
    void closeSegmentsShareTheGapWhenItIsShorterThanTwoPads() {
        float[] p = probs(0.9, 10, 0.1, 5, 0.9, 10, 0.1, 5);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, VadOptions.DEFAULTS))
                .isEqualTo(segs(0, 5600, 7200, 13280));
        VadOptions widePad = new VadOptions(0.5, Double.NaN, 250, 100, 100, Double.POSITIVE_INFINITY);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, widePad)).isEqualTo(segs(0, 6400, 6400, 14400));
    }

    @Test
    void maxSpeechSplitsAtTheLongestSilenceThenHard() {
        // a 4-chunk dip (2048 > 1568 samples) is remembered; at 1 s the segment is cut there, later cut hard
        float[] p = probs(0.9, 10, 0.1, 4, 0.9, 37);
        VadOptions oneSecond = new VadOptions(0.5, Double.NaN, 250, 100, 30, 1.0);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, oneSecond)).isEqualTo(segs(0, 5600, 6688, 22496));
    }

    @Test
    void negThresholdIsHysteresis() {
        // 0.4 is below threshold but above neg-threshold (0.35): speech continues
        float[] p = probs(0.9, 10, 0.4, 10, 0.1, 10);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, VadOptions.DEFAULTS))
                .isEqualTo(segs(0, 10240 + 480));
        VadOptions highNeg = new VadOptions(0.5, 0.45, 250, 100, 30, Double.POSITIVE_INFINITY);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, highNeg)).isEqualTo(segs(0, 5120 + 480));
    }

    @Test
    void streamingSegmenterFollowsVadIteratorWithMinSpeechZero() {
        VadOptions o = new VadOptions(0.5, Double.NaN, 0, 100, 30, Double.POSITIVE_INFINITY);
        StreamingSegmenter s = new StreamingSegmenter(o, W, SR);
        float[] p = probs(0.0, 3, 0.9, 10, 0.1, 5, 0.9, 2);
        List<SpeechEvent> events = new java.util.ArrayList<>();
        for (float x : p) s.accept(x, events);
        assertThat(events)
                .containsExactly(
                        new SpeechEvent(
                                SpeechEvent.Kind.START,
                                4 * 512 - 480 - 512,
                                SR), // current sample after chunk 3, minus pad and window
                        new SpeechEvent(
                                SpeechEvent.Kind.END,
                                14 * 512 + 480 - 512,
                                SR), // temp end after chunk 13, plus pad, minus window
                        new SpeechEvent(SpeechEvent.Kind.START, 19 * 512 - 480 - 512, SR));
        events.clear();
        s.finish(Float.NaN, p.length * W, events);
        assertThat(events).containsExactly(new SpeechEvent(SpeechEvent.Kind.END, p.length * W, SR));
    }

    @Test
    void streamingStartWaitsUntilTheSegmentIsLongerThanMinSpeech() {
        StreamingSegmenter s = new StreamingSegmenter(VadOptions.DEFAULTS, W, SR); // min-speech 250 ms: 4000 samples
        float[] p = probs(0.0, 3, 0.9, 10, 0.1, 5, 0.9, 2);
        List<List<SpeechEvent>> perChunk = new java.util.ArrayList<>();
        for (float x : p) {
            List<SpeechEvent> e = new java.util.ArrayList<>();
            s.accept(x, e);
            perChunk.add(e);
        }
        // speech from sample 1536: after chunk 10 ends at 5632 it has lasted 4096 > 4000
        for (int i = 0; i < 10; i++)
            assertThat(perChunk.get(i)).as("chunk %d", i).isEmpty();
        assertThat(perChunk.get(10)).containsExactly(new SpeechEvent(SpeechEvent.Kind.START, 1536 - 480, SR));
        assertThat(perChunk.get(17)).containsExactly(new SpeechEvent(SpeechEvent.Kind.END, 13 * 512 + 480, SR));
        List<SpeechEvent> last = new java.util.ArrayList<>();
        s.finish(Float.NaN, p.length * W, last);
        assertThat(last)
                .as("the 2-chunk burst at the end is shorter than min-speech")
                .isEmpty();
        assertThat(perChunk.stream().mapToInt(List::size).sum()).isEqualTo(2);
    }
}
