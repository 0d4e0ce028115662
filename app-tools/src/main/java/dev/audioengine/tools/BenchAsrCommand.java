package dev.audioengine.tools;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.cli.UsageError;
import dev.audioengine.cli.task.AudioInputs;
import dev.audioengine.cli.task.ModelChoice;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code audioengine bench asr [--json]}: speech recognition speed on the chosen backend. The model is loaded once and
 * every file decoded into memory first, so a round times transcription alone (voice activity detection, windows,
 * encoder and decoder) as {@code --task asr} runs it offline; one warm-up round, then the median of the timed ones.
 */
@Command(
        name = "asr",
        mixinStandardHelpOptions = true,
        description = {
            "Speech recognition speed on the chosen backend: each file transcribed as --task asr does offline, "
                    + "timed over all files per round.",
            ""
        })
final class BenchAsrCommand implements Runnable {
    /** Debian's pocketsphinx-testdata: read English speech, LibriVox clips of a few seconds and short "cards" ones. */
    static final Path TESTDATA = Path.of("/usr/share/pocketsphinx/test/data");

    @ParentCommand
    private BenchCommand bench;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--json",
            description = "One JSON object: {bench, backend, model, threads, files, audio_seconds, median_seconds, "
                    + "realtime_factor, tokens, ms_per_token, runs}.")
    private boolean json;

    @Option(
            names = "--audio",
            paramLabel = "FILE",
            arity = "1..*",
            description =
                    "Audio to transcribe: files, folders, quoted globs. "
                            + "Default: the librivox/*.wav and cards/*.wav of Debian's pocketsphinx-testdata (in /usr/share/pocketsphinx/test/data).")
    private List<String> audio;

    @Option(
            names = "--model",
            paramLabel = "NAME|PATH",
            description = "As for --task asr. Default: the asr task's default model.")
    private String model;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Timed rounds over all files, after one warm-up round. Default: 5.")
    private int runs = 5;

    // the decoding options a comparison with another engine has to pin (whisper.cpp's -l en -nf); as --task asr's
    @Option(
            names = "--language",
            paramLabel = "CODE",
            description = "The language spoken, as a code (en, de, ...), or auto, as --task asr's --language. "
                    + "Default: the model's own (Whisper detects).")
    private String language;

    @Option(
            names = "--no-fallback",
            description = "Decode each window once, as --task asr's --no-fallback (Whisper's temperature fallback "
                    + "off, whisper.cpp's -nf).")
    private boolean noFallback;

    @Override
    public void run() {
        if (runs < 1) throw new UsageError("--runs must be >= 1, got " + runs);
        AsrOptions options = options();
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        try {
            List<Path> files = audio != null ? AudioInputs.expand(audio) : defaultAudio(TESTDATA);
            if (files.contains(AudioInputs.STDIN))
                throw new UsageError("bench asr reads each file in every round; name files, not - (standard input)");
            ModelLoader loader = new ModelLoader(bench.parent.families(), ModelStore.userCache(), msg -> {
                err.println("audioengine: " + msg);
                err.flush();
            });
            ModelLoader.Choice choice = ModelChoice.choose(loader, Task.ASR, null, model);
            try (AudioEngine engine = bench.parent.engineBuilder().build();
                    SpeechRecognizer asr = (SpeechRecognizer) loader.load(engine, choice)) {
                List<float[]> clips = new ArrayList<>();
                for (Path f : files) clips.add(read(f, asr.sampleRate()));
                double audioSeconds = clips.stream().mapToLong(c -> c.length).sum() / (double) asr.sampleRate();
                try { // a language the model cannot hear: refused before the rounds, as --task asr refuses it
                    asr.requireSupported(options);
                } catch (IllegalArgumentException e) {
                    throw new UsageError(e.getMessage(), e);
                }
                round(asr, clips, options); // warm-up: the JIT, the kernels' first compilation, the caches
                long[] nanos = new long[runs];
                long tokens = 0;
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    tokens = round(asr, clips, options);
                    nanos[i] = System.nanoTime() - t0;
                }
                Arrays.sort(nanos);
                int threads = bench.parent.globals().threads() == 0
                        ? Runtime.getRuntime().availableProcessors()
                        : bench.parent.globals().threads();
                report(
                        out,
                        engine.backend().registryName(),
                        asr.describe(),
                        threads,
                        files.size(),
                        audioSeconds,
                        nanos[runs / 2] / 1e9,
                        tokens);
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** The default set; a clear message naming the package when it is not installed. */
    static List<Path> defaultAudio(Path testdata) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String dir : List.of("librivox", "cards")) {
            Path d = testdata.resolve(dir);
            if (!Files.isDirectory(d)) {
                throw new NoSuchFileException(
                        d.toString(),
                        null,
                        "missing; install Debian's pocketsphinx-testdata "
                                + "(sudo apt-get install pocketsphinx-testdata) or name the audio with --audio FILE...");
            }
            try (var entries = Files.list(d)) {
                files.addAll(entries.filter(p -> p.getFileName().toString().endsWith(".wav"))
                        .sorted()
                        .toList());
            }
        }
        if (files.isEmpty())
            throw new NoSuchFileException(
                    testdata.toString(),
                    null,
                    "has no librivox/*.wav or cards/*.wav; name the audio with --audio FILE...");
        return files;
    }

    /** The whole file at the model's rate, decoded before any timing. */
    private static float[] read(Path file, int rate) throws IOException {
        try (AudioStream in = AudioStream.open(file)) {
            return (in.sourceRate() == rate ? in : in.resampleTo(rate))
                    .readAll()
                    .samples();
        }
    }

    /** The offline defaults with the options given; a value out of range is a usage error. */
    private AsrOptions options() {
        AsrOptions o = AsrOptions.DEFAULTS;
        try {
            if (language != null) o = o.withLanguage(language.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--language: " + e.getMessage(), e);
        }
        if (noFallback)
            o = o.withLongForm(o.longForm().withTemperatures(o.longForm().temperature(), 0));
        return o;
    }

    /** One round over every file; the tokens decoded. */
    private static long round(SpeechRecognizer asr, List<float[]> clips, AsrOptions options) {
        long tokens = 0;
        for (float[] c : clips) tokens += asr.transcribe(c, options).decodedTokens();
        return tokens;
    }

    private void report(
            PrintWriter out,
            String backend,
            String model,
            int threads,
            int files,
            double audioSeconds,
            double seconds,
            long tokens) {
        double rtf = audioSeconds / Math.max(seconds, 1e-9);
        // wall time per token, the encoder's share included: what a person waits per token of transcript
        double msPerToken = tokens > 0 ? seconds * 1e3 / tokens : Double.NaN;
        if (json) {
            JsonWriter w = new JsonWriter()
                    .beginObject()
                    .name("bench")
                    .value("asr")
                    .name("backend")
                    .value(backend)
                    .name("model")
                    .value(model)
                    .name("threads")
                    .value(threads)
                    .name("files")
                    .value(files)
                    .name("audio_seconds")
                    .number(round(audioSeconds, 1000))
                    .name("median_seconds")
                    .number(round(seconds, 10000))
                    .name("realtime_factor")
                    .number(round(rtf, 10))
                    .name("tokens")
                    .value(tokens)
                    .name("ms_per_token");
            if (tokens > 0) w.number(round(msPerToken, 100));
            else w.value((String) null); // no token: no time per token (JSON has no NaN)
            out.println(w.name("runs").value(runs).endObject());
        } else {
            out.println(String.format(
                    Locale.ROOT,
                    "asr %s backend %s threads %d  %d file%s, %.1f s of audio  median %.3f s  %.1fx real time  "
                            + "%d tokens  %s ms/token  (%d run%s)",
                    model,
                    backend,
                    threads,
                    files,
                    files == 1 ? "" : "s",
                    audioSeconds,
                    seconds,
                    rtf,
                    tokens,
                    tokens > 0 ? String.format(Locale.ROOT, "%.2f", msPerToken) : "-",
                    runs,
                    runs == 1 ? "" : "s"));
        }
    }

    private static double round(double v, double scale) {
        return Math.round(v * scale) / scale;
    }
}
