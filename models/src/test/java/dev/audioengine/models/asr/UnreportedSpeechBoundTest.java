package dev.audioengine.models.asr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.models.silero.SpeechTimestamps;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bound against Silero's own segmentation (the get_speech_timestamps port): on random probabilities and options,
 * no segment reported later ever starts before it, whenever the earlier ones are reported; and it keeps up with the
 * audio in silence, so that long-form transcription can let go of it.
 */
class UnreportedSpeechBoundTest {
    private static final int RATE = 16_000, CHUNK = 512;

    @Test
    void noSegmentReportedLaterStartsBeforeTheBound() {
        for (long seed = 0; seed < 4000; seed++) {
            Random rnd = new Random(seed);
            VadOptions o = randomOptions(rnd);
            float[] p = randomProbabilities(rnd, o);
            long audio = (long) p.length * CHUNK - rnd.nextInt(CHUNK);
            List<SpeechSegment> segments = SpeechTimestamps.segments(p, CHUNK, audio, RATE, o);
            UnreportedSpeechBound bound = new UnreportedSpeechBound(o, CHUNK, RATE);
            int next = 0; // the first segment not reported
            long reportAt = -1; // the chunk count at which it is reported
            for (int c = 0; c < p.length; c++) {
                bound.accept(p[c]);
                while (next < segments.size()) {
                    // a detector reports a segment once its chunks are seen, at some delay, in order
                    if (reportAt < 0)
                        reportAt =
                                Math.max(c + 1, Math.ceilDiv(segments.get(next).endSample(), CHUNK))
                                        + (rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(60));
                    if (c + 1 < reportAt) break;
                    bound.reported(segments.get(next++).endSample());
                    reportAt = -1;
                }
                if (next < segments.size()) {
                    assertThat(bound.earliestStart())
                            .as("seed %d, chunk %d, options %s: the bound passed %s", seed, c, o, segments.get(next))
                            .isLessThanOrEqualTo(segments.get(next).startSample());
                }
            }
        }
    }

    @Test
    void inSilenceTheBoundFollowsTheAudioLessThePad() {
        VadOptions o = new VadOptions(0.5, Double.NaN, 250, 300, 200, Double.POSITIVE_INFINITY);
        UnreportedSpeechBound bound = new UnreportedSpeechBound(o, CHUNK, RATE);
        for (int c = 0; c < 1000; c++) bound.accept(0.01f);
        assertThat(bound.earliestStart()).isEqualTo(1000L * CHUNK - 3200);
    }

    @Test
    void aNoiseShorterThanMinSpeechIsLetGoOnceTheSilenceAfterItCloses() {
        VadOptions o = new VadOptions(0.5, Double.NaN, 250, 300, 200, Double.POSITIVE_INFINITY);
        UnreportedSpeechBound bound = new UnreportedSpeechBound(o, CHUNK, RATE);
        for (int c = 0; c < 100; c++) bound.accept(0.01f);
        for (int c = 0; c < 5; c++) bound.accept(0.9f); // 160 ms: under min-speech
        assertThat(bound.earliestStart()).isEqualTo(100L * CHUNK - 3200); // held at the noise
        for (int c = 0; c < 9; c++) bound.accept(0.01f); // 8 chunks apart: 256 ms < 300 ms of silence
        assertThat(bound.earliestStart()).isEqualTo(100L * CHUNK - 3200);
        bound.accept(0.01f); // 288 ms
        bound.accept(0.01f); // 320 ms: the noise is dropped
        assertThat(bound.earliestStart()).isEqualTo(116L * CHUNK - 3200);
        for (int c = 0; c < 10_000; c++) bound.accept(0.01f);
        assertThat(bound.earliestStart()).isEqualTo(10_116L * CHUNK - 3200);
    }

    @Test
    void speechLongerThanMinSpeechHoldsTheBoundUntilItIsReported() {
        VadOptions o = new VadOptions(0.5, Double.NaN, 250, 300, 200, Double.POSITIVE_INFINITY);
        UnreportedSpeechBound bound = new UnreportedSpeechBound(o, CHUNK, RATE);
        for (int c = 0; c < 100; c++) bound.accept(0.01f);
        for (int c = 0; c < 50; c++) bound.accept(0.9f);
        for (int c = 0; c < 500; c++) bound.accept(0.01f);
        assertThat(bound.earliestStart()).as("kept speech, not reported yet").isEqualTo(100L * CHUNK - 3200);
        bound.reported(150L * CHUNK + 3200);
        assertThat(bound.earliestStart()).isEqualTo(650L * CHUNK - 3200);
    }

    @Test
    void withMaxSpeechANoiseHoldsTheBoundUntilALaterSegmentIsReported() {
        VadOptions o = new VadOptions(0.5, Double.NaN, 250, 300, 200, 10);
        UnreportedSpeechBound bound = new UnreportedSpeechBound(o, CHUNK, RATE);
        for (int c = 0; c < 5; c++) bound.accept(0.9f);
        for (int c = 0; c < 500; c++) bound.accept(0.01f);
        assertThat(bound.earliestStart()).isZero();
        bound.reported(400L * CHUNK);
        assertThat(bound.earliestStart()).isEqualTo(505L * CHUNK - 3200);
    }

    private static VadOptions randomOptions(Random rnd) {
        double threshold = 0.3 + 0.4 * rnd.nextDouble();
        double neg = rnd.nextBoolean() ? Double.NaN : threshold * rnd.nextDouble();
        double maxSpeech = rnd.nextBoolean() ? Double.POSITIVE_INFINITY : 0.3 + 4 * rnd.nextDouble();
        return new VadOptions(threshold, neg, rnd.nextInt(500), rnd.nextInt(500), rnd.nextInt(300), maxSpeech);
    }

    /** Runs of speech, silence and in-between chunks, the thresholds themselves included. */
    private static float[] randomProbabilities(Random rnd, VadOptions o) {
        float[] p = new float[50 + rnd.nextInt(1500)];
        float thr = (float) o.threshold(), neg = (float) o.effectiveNegThreshold();
        for (int i = 0; i < p.length; ) {
            int kind = rnd.nextInt(4);
            int n = Math.min(p.length - i, 1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 60));
            for (int k = 0; k < n; k++, i++) {
                p[i] = switch (kind) {
                    case 0 -> thr + (1 - thr) * rnd.nextFloat();
                    case 1 -> neg * rnd.nextFloat();
                    case 2 -> neg + (thr - neg) * rnd.nextFloat();
                    default -> rnd.nextBoolean() ? thr : neg;
                };
            }
        }
        if (rnd.nextInt(10) == 0) Arrays.fill(p, 0, p.length / 2, thr);
        return p;
    }
}
