package dev.audioengine.tools;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.cli.UsageError;
import dev.audioengine.cli.task.ModelChoice;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VadStream;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code audioengine bench vad [--json]}: Silero VAD speed on the chosen backend, streaming
 * (one 512-sample chunk per call) and offline (whole file, batched). Reports the median of
 * several timed runs after warm-up. ONNX Runtime's side of the comparison is a test-scope
 * benchmark (ORT is never a runtime dependency), see docs/PERFORMANCE.md.
 */
@Command(
        name = "vad",
        mixinStandardHelpOptions = true,
        description = {
            "Silero VAD speed on the chosen backend: streaming (one chunk per call) and offline (whole file, batched).",
            ""
        })
final class BenchVadCommand implements Runnable {
    @ParentCommand
    private BenchCommand bench;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--json",
            description = "One JSON object per mode: {bench, backend, mode, threads, us_per_chunk, realtime_factor}.")
    private boolean json;

    @Option(
            names = "--audio",
            paramLabel = "WAV",
            description = "Audio to run (8 or 16 kHz). Default: 60 s of generated 16 kHz audio.")
    private Path audio;

    @Option(
            names = "--model",
            paramLabel = "silero_vad|PATH",
            description = "As for --task vad. Default: the vad task's default model.")
    private String model;

    @Option(names = "--runs", paramLabel = "N", description = "Timed runs per mode (after warm-up). Default: 5.")
    private int runs = 5;

    @Override
    public void run() {
        if (runs < 1) throw new UsageError("--runs must be >= 1, got " + runs);
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        try {
            AudioClip read = audio != null ? WavReader.read(audio) : generated();
            ModelLoader loader = new ModelLoader(bench.parent.families(), ModelStore.userCache(), msg -> {
                err.println("audioengine: " + msg);
                err.flush();
            });
            ModelLoader.Choice choice = ModelChoice.choose(loader, Task.VAD, null, model);
            try (AudioEngine engine = bench.parent.engineBuilder().build();
                    VoiceActivityDetector vad = (VoiceActivityDetector) loader.load(engine, choice)) {
                AudioClip clip = vad.sampleRates().contains(read.sampleRate())
                        ? read
                        : read.resampledTo(
                                vad.sampleRates().stream().max(Integer::compare).orElseThrow());
                String backend = engine.backend().registryName();
                int threads = bench.parent.globals().threads() == 0
                        ? Runtime.getRuntime().availableProcessors()
                        : bench.parent.globals().threads();
                int chunk = vad.chunkSize(clip.sampleRate());
                int chunks = (clip.samples().length + chunk - 1) / chunk;
                double chunkSeconds = chunk / (double) clip.sampleRate();

                double streamNs;
                try (VadStream session = vad.stream(clip.sampleRate(), VadOptions.DEFAULTS)) {
                    streamNs = median(runs, () -> streamOnce(session, clip, chunk)) / chunks;
                }
                report(out, backend, "streaming", threads, streamNs, chunkSeconds);
                double offlineNs = median(runs, () -> vad.probabilities(clip.samples(), clip.sampleRate())) / chunks;
                report(out, backend, "offline", threads, offlineNs, chunkSeconds);
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    private static void streamOnce(VadStream s, AudioClip clip, int chunk) {
        s.reset();
        float[] x = clip.samples();
        float[] piece = new float[chunk];
        for (int i = 0; i < x.length; i += chunk) {
            int n = Math.min(chunk, x.length - i);
            if (n < chunk) Arrays.fill(piece, 0f);
            System.arraycopy(x, i, piece, 0, n);
            s.accept(piece);
        }
    }

    /** Nanoseconds of the median of {@code runs} timed runs, after warm-up runs (at least 5 and 3 s) for the JIT. */
    private static double median(int runs, Runnable body) {
        long warmStart = System.nanoTime();
        for (int i = 0; i < 5 || System.nanoTime() - warmStart < 3_000_000_000L; i++) body.run();
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            body.run();
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return t[runs / 2];
    }

    private void report(
            PrintWriter out, String backend, String mode, int threads, double nsPerChunk, double chunkSeconds) {
        double us = nsPerChunk / 1e3, rtf = chunkSeconds * 1e9 / nsPerChunk;
        if (json) {
            out.println(new JsonWriter()
                    .beginObject()
                    .name("bench")
                    .value("vad")
                    .name("backend")
                    .value(backend)
                    .name("mode")
                    .value(mode)
                    .name("threads")
                    .value(threads)
                    .name("us_per_chunk")
                    .number(Math.round(us * 100) / 100.0)
                    .name("realtime_factor")
                    .number(Math.round(rtf * 10) / 10.0)
                    .endObject());
        } else {
            out.println(String.format(
                    Locale.ROOT,
                    "vad %-9s backend %-6s threads %2d  %9.2f us/chunk  %9.1fx real time",
                    mode,
                    backend,
                    threads,
                    us,
                    rtf));
        }
    }

    /** 60 s at 16 kHz: tones with a varying envelope over quiet noise (speech-like on/off structure for the LSTM). */
    private static AudioClip generated() {
        int rate = 16000;
        float[] x = new float[60 * rate];
        Random rnd = new Random(1);
        for (int i = 0; i < x.length; i++) {
            double t = i / (double) rate, env = Math.max(0, Math.sin(2 * Math.PI * 0.3 * t));
            x[i] = (float)
                    (0.3 * env * Math.sin(2 * Math.PI * (180 + 40 * Math.sin(t)) * t) + 0.01 * rnd.nextGaussian());
        }
        return new AudioClip(x, rate, 1);
    }
}
