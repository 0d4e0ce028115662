package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.BatchStats;
import dev.audioengine.model.task.Batching;
import dev.audioengine.model.task.LongFormOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batched decoding ({@link WhisperBatch}): recordings transcribed at the same time, their steps run together over the
 * slots of one batch, must each decode what they decode alone: the same windows, seeks and tokens, the probabilities
 * within float rounding (a step over several rows multiplies in another order than a one-row step). Random weights
 * with boosted timestamp rows (timestamps decide seeks and window ends), recordings of different lengths (so
 * sequences join and leave the batch at different times), and the temperature fallback on with best-of 5 (the fallback
 * passes run several decoders, alone on the batch's session, while the others go on stepping).
 */
class WhisperBatchTest {
    private static final int[] SECONDS = {47, 12, 65, 31};

    @Test
    void recordingsDecodedTogetherDecodeAsEachAlone(@TempDir Path dir) throws Exception {
        GgmlWriter writer = new GgmlWriter(WhisperLongFormParityTest.CONFIG, true, 31, 3 + 16);
        writer.boostTimestamps(1.6f);
        Path file = dir.resolve("ggml-31.bin");
        writer.write(file, Gpt2Vocabulary.bytes());
        List<float[]> audio = new ArrayList<>();
        for (int i = 0; i < SECONDS.length; i++)
            audio.add(WhisperLongFormParityTest.varied(40 + i, SECONDS[i] * 16000 + 131 * i));
        LongFormOptions fallback = LongFormOptions.DEFAULTS.withTemperatures(0, 0.4);
        WhisperModel.Options options = new WhisperModel.Options("en", false, true, 220);
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel model = WhisperModel.load(engine, file)) {
            List<WhisperLongForm.Result> alone = new ArrayList<>();
            List<WhisperModel.Decoded> aloneWindows = new ArrayList<>();
            for (float[] a : audio) {
                alone.add(model.transcribeSequentially(a, options, fallback));
                aloneWindows.add(model.decode(a, 8000, window(a), options));
            }
            assertThat(model.batchStats()).isEqualTo(BatchStats.NONE);

            model.batching(new Batching(4, 0));
            model.aloneWhenIdle(false); // every call through a slot, even the first to come
            List<WhisperLongForm.Result> together =
                    concurrently(audio.size(), i -> model.transcribeSequentially(audio.get(i), options, fallback));
            BatchStats afterLongForm = model.batchStats();
            List<WhisperModel.Decoded> togetherWindows =
                    concurrently(audio.size(), i -> model.decode(audio.get(i), 8000, window(audio.get(i)), options));
            BatchStats stats = model.batchStats();

            int windows = 0, fellBack = 0;
            for (int i = 0; i < audio.size(); i++) {
                LongFormResults.assertSameWindows(
                        together.get(i), alone.get(i), "recording " + i + " (" + SECONDS[i] + " s)", 1e-4);
                windows += alone.get(i).windows().size();
                for (WhisperLongForm.Window w : alone.get(i).windows()) if (w.temperature() > 0) fellBack++;
                WhisperModel.Decoded a = togetherWindows.get(i), e = aloneWindows.get(i);
                String what = "decode() of recording " + i;
                assertThat(a.tokens()).as(what).isEqualTo(e.tokens());
                assertThat(a.segments()).as(what).isEqualTo(e.segments());
                assertThat(a.averageLogProbability()).as(what).isCloseTo(e.averageLogProbability(), within(e));
                assertThat(a.noSpeechProbability()).as(what).isCloseTo(e.noSpeechProbability(), within(1e-5));
            }
            System.err.printf(
                    "batch: %d windows (%d fell back), %s; occupancy %.2f%n",
                    windows, fellBack, stats, stats.occupancy());
            assertThat(stats.slots()).isEqualTo(4);
            assertThat(stats.active()).as("slots still leased").isZero();
            assertThat(afterLongForm.occupancy())
                    .as("sequences a step served on average: the recordings' steps ran together")
                    .isGreaterThan(1.5);
            assertThat(fellBack)
                    .as("windows whose greedy pass failed: the fallback's decoders ran")
                    .isPositive();
            assertThat(model.severalDecoderPasses())
                    .as("passes of several decoders, alone on the batch's session")
                    .isGreaterThanOrEqualTo(fellBack);
            assertThat(stats.loneWindows())
                    .as("calls that found the batch idle: none may skip it here")
                    .isZero();
            assertThat(stats.windows())
                    .as("windows encoded into slots: every recording's windows, and one window each through decode()")
                    .isEqualTo(windows + audio.size());

            // as a server runs it: the first call to find the batch idle decodes alone, the others through slots
            model.aloneWhenIdle(true);
            List<WhisperLongForm.Result> mixed =
                    concurrently(audio.size(), i -> model.transcribeSequentially(audio.get(i), options, fallback));
            for (int i = 0; i < audio.size(); i++)
                LongFormResults.assertSameWindows(mixed.get(i), alone.get(i), "lone and batched, recording " + i, 1e-4);
            BatchStats after = model.batchStats();
            assertThat(after.loneWindows())
                    .as("calls decoded alone: the first to come")
                    .isPositive();
            assertThat(after.windows() - stats.windows())
                    .as("the others' windows through slots, one window counted for each call alone")
                    .isBetween(1L + audio.size() - 1, (long) windows + 1);
        }
    }

    /** A VAD-sized window from 0.5 s: 20 s, or what the recording has. */
    private static int window(float[] a) {
        return Math.min(20 * 16000, a.length - 8000);
    }

    private static org.assertj.core.data.Offset<Double> within(WhisperModel.Decoded expected) {
        return org.assertj.core.data.Offset.offset(1e-4 * Math.max(1, Math.abs(expected.averageLogProbability())));
    }

    private static org.assertj.core.data.Offset<Double> within(double d) {
        return org.assertj.core.data.Offset.offset(d);
    }

    /** {@code n} calls started together on their own threads; their results in call order. */
    private static <T> List<T> concurrently(int n, java.util.function.IntFunction<T> call) throws Exception {
        CyclicBarrier start = new CyclicBarrier(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                futures.add(pool.submit((Callable<T>) () -> {
                    start.await();
                    return call.apply(k);
                }));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) out.add(f.get());
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
