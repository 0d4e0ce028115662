package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streaming segmenter against get_speech_timestamps on random probability sequences and
 * random options (min-speech, max-speech splits, pads wider than the gaps, huge durations):
 * the segments must be the same, every boundary once, START before END, in order.
 */
class SegmenterAgreementTest {
    @Test
    void streamingGivesTheOfflineSegmentsForRandomProbabilitiesAndOptions() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        int[] maxEvents = {0};
        for (int trial = 0; trial < 3000; trial++) {
            boolean wide = rnd.nextBoolean();
            int rate = wide ? 16000 : 8000, window = wide ? 512 : 256;
            float[] p = randomProbabilities(rnd, 1 + rnd.nextInt(400));
            long samples = (long) p.length * window - (rnd.nextBoolean() ? 0 : rnd.nextInt(window));
            VadOptions o = randomOptions(rnd);
            List<SpeechSegment> expected = SpeechTimestamps.segments(p, window, samples, rate, o);
            StreamingSegmenter s = new StreamingSegmenter(o, window, rate);
            List<SpeechEvent> events = new ArrayList<>();
            boolean partial = samples % window != 0;
            for (int i = 0; i < p.length - (partial ? 1 : 0); i++) {
                int before = events.size();
                s.accept(p[i], events);
                maxEvents[0] = Math.max(maxEvents[0], events.size() - before);
            }
            s.finish(partial ? p[p.length - 1] : Float.NaN, samples, events);
            assertThat(StreamingAgreesWithOfflineTest.segments(events, rate))
                    .as("trial %d (seed %d): %s, %d chunks, %d samples", trial, seed, o, p.length, samples)
                    .isEqualTo(expected);
        }
        assertThat(maxEvents[0])
                .as("some chunk settled two boundaries (max-speech, shared gaps)")
                .isGreaterThanOrEqualTo(2);
    }

    /** Runs of speech, silence and values between the thresholds, of random lengths. */
    static float[] randomProbabilities(Random rnd, int n) {
        float[] p = new float[n];
        for (int i = 0; i < n; ) {
            int run = 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 40);
            float base = switch (rnd.nextInt(3)) {
                case 0 -> 0.05f;
                case 1 -> 0.95f;
                default -> 0.3f + 0.4f * rnd.nextFloat();
            };
            for (int j = 0; j < run && i < n; j++, i++)
                p[i] = Math.clamp(base + 0.05f * (float) rnd.nextGaussian(), 0f, 1f);
        }
        return p;
    }

    static VadOptions randomOptions(Random rnd) {
        double threshold = 0.2 + 0.6 * rnd.nextDouble();
        double neg = rnd.nextBoolean() ? Double.NaN : threshold * rnd.nextDouble();
        int minSpeech = pick(rnd, 0, 30, 250, 1000, 135_000);
        int minSilence = pick(rnd, 0, 20, 100, 300, 135_000);
        int pad = pick(rnd, 0, 10, 30, 100, 400, 135_000);
        double maxSpeech = rnd.nextBoolean() ? Double.POSITIVE_INFINITY : 0.05 + 3 * rnd.nextDouble();
        return new VadOptions(threshold, neg, minSpeech, minSilence, pad, maxSpeech);
    }

    private static int pick(Random rnd, int... values) {
        return rnd.nextInt(4) == 0 ? rnd.nextInt(values[values.length - 2] + 1) : values[rnd.nextInt(values.length)];
    }
}
