package dev.audioengine.models.silero;

import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.SpeechEvent;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-worked cases of get_speech_timestamps' rules at 16 kHz, 512-sample chunks. */
class SpeechTimestampsTest {
    private static final int W = 512, SR = 16000;

    private static float[] probs(Object... runs) { // value, count, value, count, ...
        int n = 0;
        for (int i = 1; i < runs.length; i += 2) n += (Integer) runs[i];
        float[] p = new float[n];
        int k = 0;
        for (int i = 0; i < runs.length; i += 2) for (int j = 0; j < (Integer) runs[i + 1]; j++) p[k++] = ((Double) runs[i]).floatValue();
        return p;
    }

    private static List<SpeechSegment> segs(long... bounds) {
        java.util.ArrayList<SpeechSegment> out = new java.util.ArrayList<>();
        for (int i = 0; i < bounds.length; i += 2) out.add(new SpeechSegment(bounds[i], bounds[i + 1], SR));
        return out;
    }

    @Test
    void endsAfterMinSilenceDropsShortSpeechAndPads() {
        // speech from chunk 2; silence from chunk 22 ends it at 11264 once 1600 samples passed; the burst at 32..34 is too short
        float[] p = probs(0.0, 2, 0.9, 20, 0.1, 10, 0.9, 3, 0.0, 10);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, VadOptions.DEFAULTS)).isEqualTo(segs(544, 11744));
    }

    @Test
    void silenceShorterThanMinSilenceDoesNotSplit() {
        float[] p = probs(0.9, 10, 0.1, 4, 0.9, 10, 0.1, 6);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, VadOptions.DEFAULTS)).isEqualTo(segs(0, 24 * 512 + 480));
    }

    @Test
    void closeSegmentsShareTheGapWhenItIsShorterThanTwoPads() {
        float[] p = probs(0.9, 10, 0.1, 5, 0.9, 10, 0.1, 5);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, VadOptions.DEFAULTS)).isEqualTo(segs(0, 5600, 7200, 13280));
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
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, VadOptions.DEFAULTS)).isEqualTo(segs(0, 10240 + 480));
        VadOptions highNeg = new VadOptions(0.5, 0.45, 250, 100, 30, Double.POSITIVE_INFINITY);
        assertThat(SpeechTimestamps.segments(p, W, p.length * W, SR, highNeg)).isEqualTo(segs(0, 5120 + 480));
    }

    @Test
    void streamingSegmenterFollowsVadIterator() {
        StreamingSegmenter s = new StreamingSegmenter(VadOptions.DEFAULTS, W, SR);
        float[] p = probs(0.0, 3, 0.9, 10, 0.1, 5, 0.9, 2);
        List<SpeechEvent> events = new java.util.ArrayList<>();
        for (float x : p) {
            SpeechEvent e = s.accept(x);
            if (e != null) events.add(e);
        }
        SpeechEvent last = s.finish(p.length * W);
        assertThat(events).containsExactly(
                new SpeechEvent(SpeechEvent.Kind.START, 4 * 512 - 480 - 512, SR),   // current sample after chunk 3, minus pad and window
                new SpeechEvent(SpeechEvent.Kind.END, 14 * 512 + 480 - 512, SR),    // temp end after chunk 13, plus pad, minus window
                new SpeechEvent(SpeechEvent.Kind.START, 19 * 512 - 480 - 512, SR));
        assertThat(last).isEqualTo(new SpeechEvent(SpeechEvent.Kind.END, p.length * W, SR));
    }
}
