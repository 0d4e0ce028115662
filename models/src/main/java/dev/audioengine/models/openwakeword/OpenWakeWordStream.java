package dev.audioengine.models.openwakeword;

import dev.audioengine.model.task.KeywordDebounce;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@link KeywordStream} over openWakeWord's pipeline: raw head outputs per 80 ms chunk ({@link ScoreStream}) turned
 * into one score per selected keyword (a verifier's score where the classifier reaches its threshold; 0 during the
 * first {@value OpenWakeWordSpotter#WARMUP_FRAMES} frames), then debounced into detections. Not thread-safe.
 */
public final class OpenWakeWordStream implements KeywordStream {
    /** Where a keyword's score is in a raw row: its class, and the verifier's column (or -1) with its threshold. */
    record Column(int index, int verifier, float verifierThreshold) {}

    private final ScoreStream scores;
    private final Column[] columns;
    private final List<String> keywords;
    private final KeywordDebounce debounce;
    private long samplesSeen;

    OpenWakeWordStream(ScoreStream scores, Column[] columns, List<String> keywords, KeywordOptions options) {
        this.scores = scores;
        this.columns = columns;
        this.keywords = List.copyOf(keywords);
        this.debounce = new KeywordDebounce(
                keywords, options, OpenWakeWordNetwork.CHUNK / (double) OpenWakeWordNetwork.SAMPLE_RATE);
    }

    @Override
    public int sampleRate() {
        return OpenWakeWordNetwork.SAMPLE_RATE;
    }

    @Override
    public int frameSize() {
        return OpenWakeWordNetwork.CHUNK;
    }

    @Override
    public List<String> keywords() {
        return keywords;
    }

    /** The refractory period in frames that detections are debounced with. */
    public long refractoryFrames() {
        return debounce.refractoryFrames();
    }

    @Override
    public Result accept(float[] samples, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, samples.length);
        for (int i = offset; i < offset + length; i++) {
            if (!Float.isFinite(samples[i])) {
                long at = samplesSeen + (i - offset);
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "sample %d (%.3f s) is %s: the audio must hold finite samples; repair or trim the input",
                        at,
                        at / (double) sampleRate(),
                        samples[i]));
            }
        }
        samplesSeen += length;
        return rows(scores.accept(samples, offset, length));
    }

    @Override
    public Result finish() {
        Result r = rows(scores.flush());
        reset();
        return r;
    }

    @Override
    public void reset() {
        scores.reset();
        debounce.reset();
        samplesSeen = 0;
    }

    private Result rows(float[][] raw) {
        long first = debounce.frames();
        float[][] out = new float[raw.length][];
        List<KeywordDetection> detections = new ArrayList<>();
        for (int f = 0; f < raw.length; f++) {
            float[] row = new float[columns.length];
            if (first + f >= OpenWakeWordSpotter.WARMUP_FRAMES) {
                for (int k = 0; k < columns.length; k++) {
                    Column c = columns[k];
                    float p = raw[f][c.index()];
                    row[k] = c.verifier() >= 0 && p >= c.verifierThreshold() ? raw[f][c.verifier()] : p;
                }
            }
            out[f] = row;
            detections.addAll(debounce.accept(row));
        }
        return new Result(first, out, detections);
    }

    @Override
    public void close() {
        // the runner and its graphs belong to the spotter; nothing of the engine is held per stream
    }
}
