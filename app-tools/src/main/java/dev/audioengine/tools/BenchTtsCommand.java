package dev.audioengine.tools;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.cli.UsageError;
import dev.audioengine.cli.task.ModelChoice;
import dev.audioengine.cli.task.TextSource;
import dev.audioengine.cli.task.TtsTask;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SpeechSynthesizer.SpeechPiece;
import dev.audioengine.model.task.SynthesisOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code audioengine bench tts [--json]}: speech synthesis speed on the chosen backend. The model is loaded once; a
 * round says every sentence through the streaming form (as {@code --task tts --mode streaming} does, without the
 * file), timing the whole round and each sentence's first piece; one warm-up round, then the medians of the timed ones.
 */
@Command(
        name = "tts",
        mixinStandardHelpOptions = true,
        description = {
            "Speech synthesis speed on the chosen backend: real-time factor over a set of sentences per round, "
                    + "and the time to the first audio of a sentence.",
            ""
        })
final class BenchTtsCommand implements Runnable {
    /** The default round: the things a front end gets wrong or slow: numbers, questions, names, long and short sentences. */
    static final List<String> SENTENCES = List.of(
            "The quick brown fox jumps over the lazy dog.",
            "Is this the right way to the station?",
            "Doctor Smith arrived at 10:45 on March 3rd, 2024.",
            "It costs $19.99, or about 18 euros.",
            "Call me at 555-0123 before Friday.",
            "Marie Curie and Ada Lovelace changed science.",
            "Wait, what did you just say?",
            "Yes.",
            "The temperature dropped to minus 7 degrees, and 42 percent of the roads were closed.",
            "Speech synthesis turns written text into natural sounding audio, one sentence at a time.");

    @ParentCommand
    private BenchCommand bench;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--json",
            description = "One JSON object: {bench, backend, model, threads, sentences, audio_seconds, median_seconds, "
                    + "realtime_factor, first_audio_ms, runs}.")
    private boolean json;

    @Option(
            names = "--text-file",
            paramLabel = "FILE",
            description = "Sentences to say, one per line (blank lines skipped). "
                    + "Default: 10 built-in English sentences with numbers, questions and names.")
    private Path textFile;

    @Option(
            names = "--voice",
            paramLabel = "NAME",
            description = "As for --task tts. Default: the model's default voice.")
    private String voice;

    @Option(
            names = "--family",
            paramLabel = "NAME",
            description = "As for --task tts. Default: the tts task's default family.")
    private String family;

    @Option(
            names = "--model",
            paramLabel = "NAME|PATH",
            description = "As for --task tts. Default: the family's default model.")
    private String model;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Timed rounds over all sentences, after one warm-up round. Default: 5.")
    private int runs = 5;

    @Override
    public void run() {
        if (runs < 1) throw new UsageError("--runs must be >= 1, got " + runs);
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        try {
            List<String> sentences = textFile == null ? SENTENCES : sentences(textFile);
            ModelLoader loader = new ModelLoader(bench.parent.families(), ModelStore.userCache(), msg -> {
                err.println("audioengine: " + msg);
                err.flush();
            });
            ModelLoader.Choice choice = ModelChoice.choose(loader, Task.TTS, family, model);
            try (AudioEngine engine = bench.parent.engineBuilder().build();
                    SpeechSynthesizer tts = (SpeechSynthesizer) loader.load(engine, choice)) {
                SynthesisOptions options = TtsTask.withVoice(SynthesisOptions.DEFAULTS, voice, tts);
                long[] first = new long[runs * sentences.size()];
                round(
                        tts,
                        options,
                        sentences,
                        new long[sentences.size()],
                        0); // warm-up: the JIT, the kernels' first compilation, the caches
                long[] nanos = new long[runs];
                long samples = 0;
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    samples = round(tts, options, sentences, first, i * sentences.size());
                    nanos[i] = System.nanoTime() - t0;
                }
                Arrays.sort(nanos);
                Arrays.sort(first);
                int threads = bench.parent.globals().threads() == 0
                        ? Runtime.getRuntime().availableProcessors()
                        : bench.parent.globals().threads();
                report(
                        out,
                        engine.backend().registryName(),
                        tts.describe(),
                        threads,
                        sentences.size(),
                        samples / (double) tts.sampleRate(),
                        nanos[runs / 2] / 1e9,
                        first[first.length / 2] / 1e6);
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** One sentence per non-blank line; a file without any is an error naming it. */
    static List<String> sentences(Path file) throws IOException {
        List<String> lines = new TextSource(null, file, () -> System.in)
                .readAll()
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .toList();
        if (lines.isEmpty()) throw new IllegalArgumentException(file + " holds no text; give one sentence per line");
        return lines;
    }

    /** Says every sentence; the samples made, each sentence's time to its first piece into {@code first} from {@code at}. */
    private static long round(
            SpeechSynthesizer tts, SynthesisOptions options, List<String> sentences, long[] first, int at) {
        long samples = 0;
        for (String s : sentences) {
            long t0 = System.nanoTime();
            Iterator<SpeechPiece> pieces = tts.stream(new StringReader(s), options);
            boolean any = false;
            while (pieces.hasNext()) {
                samples += pieces.next().samples().length;
                if (!any) first[at] = System.nanoTime() - t0;
                any = true;
            }
            if (!any)
                throw new IllegalArgumentException(
                        "\"" + s + "\": the text has nothing to say: no speakable characters");
            at++;
        }
        return samples;
    }

    private void report(
            PrintWriter out,
            String backend,
            String model,
            int threads,
            int sentences,
            double audioSeconds,
            double seconds,
            double firstMs) {
        double rtf = audioSeconds / Math.max(seconds, 1e-9);
        if (json) {
            out.println(new JsonWriter()
                    .beginObject()
                    .name("bench")
                    .value("tts")
                    .name("backend")
                    .value(backend)
                    .name("model")
                    .value(model)
                    .name("threads")
                    .value(threads)
                    .name("sentences")
                    .value(sentences)
                    .name("audio_seconds")
                    .number(round(audioSeconds, 1000))
                    .name("median_seconds")
                    .number(round(seconds, 10000))
                    .name("realtime_factor")
                    .number(round(rtf, 10))
                    .name("first_audio_ms")
                    .number(round(firstMs, 10))
                    .name("runs")
                    .value(runs)
                    .endObject());
        } else {
            out.println(String.format(
                    Locale.ROOT,
                    "tts %s backend %s threads %d  %d sentence%s, %.1f s of audio  median %.3f s  "
                            + "%.1fx real time  first audio %.1f ms (median)  (%d run%s)",
                    model,
                    backend,
                    threads,
                    sentences,
                    sentences == 1 ? "" : "s",
                    audioSeconds,
                    seconds,
                    rtf,
                    firstMs,
                    runs,
                    runs == 1 ? "" : "s"));
        }
    }

    private static double round(double v, double scale) {
        return Math.round(v * scale) / scale;
    }
}
