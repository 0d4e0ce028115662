package dev.audioengine.cli.task;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.output.KeywordOutput;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordSpotter;
import dev.audioengine.model.task.KeywordStream;
import dev.audioengine.model.task.VadGatedKeywordStream;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code --task kws}: wake words (keywords) heard in each input, one line per detection as it is found. The audio goes
 * through the model's streaming API in either mode (offline in large blocks, streaming in 80 ms pieces as a live
 * source delivers them); the detections are the same.
 */
final class KwsTask {
    /** Offline mode reads this many samples at a time (4 s at 16 kHz). */
    private static final int OFFLINE_BLOCK = 1 << 16;
    /** Streaming mode feeds the input in pieces of this many milliseconds: one openWakeWord frame. */
    private static final int STREAM_PIECE_MS = 80;

    @Option(
            names = "--keywords",
            paramLabel = "LIST",
            split = ",",
            description = "The keywords to listen for, comma-separated (e.g. hey_jarvis,alexa; a --model PATH head is "
                    + "named after its file). Default: every keyword of the model.")
    List<String> keywords;

    @Option(
            names = "--refractory-ms",
            paramLabel = "MS",
            description = "After a detection, the same keyword is not detected again for this long (and not before its "
                    + "score has dropped below the threshold): one utterance, one detection. Default: 2000.")
    int refractoryMs = 2000;

    @Option(
            names = "--scores-out",
            paramLabel = "FILE",
            description = "Write every frame's scores as CSV: time (end of the frame, s) and one column per keyword "
                    + "(with several inputs: an existing folder, one FILE.scores.csv per input).")
    Path scoresOut;

    /** --vad-threshold, shared with --task asr: set by TaskOptions before the checks. */
    VadThresholdOption vadThreshold = new VadThresholdOption();

    /** --threshold, shared with --task vad: set by TaskOptions before the checks. */
    ThresholdOption threshold = new ThresholdOption();

    private KeywordOptions options;
    private boolean streaming;
    private VoiceActivityDetector vad;

    /** Everything that can be wrong with the request itself, checked before a model is pulled or loaded. */
    void checkBeforeLoading(boolean streaming, List<Path> inputs) throws IOException {
        this.streaming = streaming;
        if (refractoryMs < 0) throw new UsageError("--refractory-ms must not be negative, got " + refractoryMs);
        List<String> names = keywords == null
                ? List.of()
                : keywords.stream().map(String::strip).filter(k -> !k.isEmpty()).toList();
        if (keywords != null && names.isEmpty()) throw new UsageError("--keywords names no keyword");
        options = UsageError.of(() -> new KeywordOptions(threshold.threshold, refractoryMs / 1000.0, names));
        if (vadThreshold.value != null && !(vadThreshold.value > 0 && vadThreshold.value < 1))
            throw new UsageError("--vad-threshold must be in (0, 1), got " + vadThreshold.value);
        OutputPaths.check("--scores-out", scoresOut, inputs.size());
        OutputPaths.refuseOverwriting(inputs, OutputPaths.outputs("--scores-out", scoresOut, inputs, ".scores.csv"));
    }

    /** Whether --vad-threshold asks for a voice activity detector beside the keyword model. */
    boolean needsVad() {
        return vadThreshold.value != null;
    }

    /**
     * Runs the inputs; {@code vad} gates the scores ({@link VadGatedKeywordStream}) when --vad-threshold is given, and
     * is null otherwise.
     */
    void run(TaskRun run, AudioEngine engine, KeywordSpotter spotter, VoiceActivityDetector vad, List<Path> inputs)
            throws IOException {
        this.vad = vad;
        // an unknown keyword is the request's fault: a usage error naming the model's keywords, before any audio
        UsageError.of(() -> {
            spotter.stream(options).close();
            return null;
        });
        JsonWriter doc = run.json && !streaming && inputs.size() > 1 ? new JsonWriter().beginArray() : null;
        for (Path input : inputs) {
            String prefix = inputs.size() > 1 && !run.json ? input + ": " : "";
            long t0 = System.nanoTime();
            Pass pass;
            try {
                pass = detect(input, spotter, run, prefix, inputs.size() > 1 ? input.toString() : null);
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                if (inputs.size() == 1) throw e;
                String message = run.inputFailed(input, e);
                run.failedInputJson(doc, input, message);
                run.out.flush();
                continue;
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            if (run.json && !streaming) {
                JsonWriter w = doc != null ? doc : new JsonWriter();
                resultJson(w, input, pass, spotter, engine, wall);
                if (doc == null) run.out.println(w);
            }
            run.out.flush();
            summarize(run, input, pass, spotter, engine, wall);
            if (scoresOut != null)
                writeScores(OutputPaths.forInput(scoresOut, input, inputs.size(), ".scores.csv"), pass, spotter);
        }
        if (doc != null) run.out.println(doc.endArray());
        run.out.flush();
        run.runSummary(spotter);
        run.failIfInputsFailed(inputs.size());
    }

    /** What one input gave: its detections, its length, the keywords and (for --scores-out) every frame's scores. */
    private record Pass(List<KeywordDetection> detections, List<String> keywords, float[][] scores, double seconds) {}

    private Pass detect(Path input, KeywordSpotter spotter, TaskRun run, String prefix, String audioName)
            throws IOException {
        try (AudioStream in = open(input, spotter, run);
                KeywordStream s = vad == null
                        ? spotter.stream(options)
                        : new VadGatedKeywordStream(
                                spotter.stream(options),
                                vad.stream(spotter.sampleRate(), VadOptions.DEFAULTS),
                                options,
                                vadThreshold.value)) {
            int rate = in.sampleRate();
            double total = in.durationSeconds().orElse(0);
            String name = in.source();
            List<KeywordDetection> found = new ArrayList<>();
            List<float[]> scores = scoresOut == null ? null : new ArrayList<>();
            float[] block = new float[streaming ? rate * STREAM_PIECE_MS / 1000 : OFFLINE_BLOCK];
            long t0 = System.nanoTime();
            for (int n; (n = in.read(block, 0, block.length)) >= 0; ) {
                report(s.accept(block, 0, n), found, scores, run, prefix, audioName);
                run.progress(name, in.samplesRead() / (double) rate, total, (System.nanoTime() - t0) / 1e9);
            }
            report(s.finish(), found, scores, run, prefix, audioName);
            run.endProgress();
            return new Pass(
                    found,
                    s.keywords(),
                    scores == null ? null : scores.toArray(float[][]::new),
                    in.samplesRead() / (double) rate);
        }
    }

    /** Prints each detection the moment it is made. */
    private void report(
            KeywordStream.Result r,
            List<KeywordDetection> found,
            List<float[]> scores,
            TaskRun run,
            String prefix,
            String audioName) {
        if (scores != null) scores.addAll(Arrays.asList(r.scores()));
        for (KeywordDetection d : r.detections()) {
            found.add(d);
            if (run.json && !streaming) continue; // one document at the end
            run.endProgress();
            if (run.json) {
                JsonWriter w = new JsonWriter().beginObject();
                if (audioName != null) w.name("audio").value(audioName);
                KeywordOutput.detection(w, d);
                run.out.println(w.endObject());
            } else {
                run.out.println(prefix + line(d));
            }
            run.out.flush();
        }
    }

    /** Opens the input as a stream at the model's rate. */
    private static AudioStream open(Path input, KeywordSpotter spotter, TaskRun run) throws IOException {
        AudioStream in = AudioInputs.open(input, AudioStream.BEST_AUDIO_STREAM, w -> run.note("warning: " + w));
        if (in.sourceRate() != spotter.sampleRate()) {
            run.note("resampling " + AudioInputs.describe(input) + " from " + in.sourceRate() + " Hz to "
                    + spotter.sampleRate() + " Hz");
            in = in.resampleTo(spotter.sampleRate());
        }
        return in;
    }

    static String line(KeywordDetection d) {
        return String.format(Locale.ROOT, "%.2f %s %.3f", d.seconds(), d.keyword(), d.score());
    }

    private void resultJson(
            JsonWriter w, Path input, Pass pass, KeywordSpotter spotter, AudioEngine engine, double wall) {
        w.beginObject()
                .name("audio")
                .value(input.toString())
                .name("model")
                .value(spotter.describe())
                .name("backend")
                .value(engine.backend().registryName())
                .name("audio_seconds")
                .number(pass.seconds())
                .name("realtime_factor")
                .number(pass.seconds() / Math.max(wall, 1e-9));
        KeywordOutput.detections(w, options, pass.keywords(), pass.detections());
        w.endObject();
    }

    /** One line for people on stderr, so stdout stays the detections alone. */
    private static void summarize(
            TaskRun run, Path input, Pass pass, KeywordSpotter spotter, AudioEngine engine, double seconds) {
        int n = pass.detections().size();
        run.note(String.format(
                Locale.ROOT,
                "%s%d detection%s in %.2f s of audio (%s on %s, %.0f ms wall incl. decoding, %.0fx real time)",
                input.equals(AudioInputs.STDIN) ? "" : input.getFileName() + ": ",
                n,
                n == 1 ? "" : "s",
                pass.seconds(),
                spotter.describe(),
                engine.backend().registryName(),
                seconds * 1e3,
                pass.seconds() / Math.max(seconds, 1e-9)));
    }

    private static void writeScores(Path file, Pass pass, KeywordSpotter spotter) throws IOException {
        double frame = spotter.frameSize() / (double) spotter.sampleRate();
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("time," + String.join(",", pass.keywords()));
            w.newLine();
            for (int f = 0; f < pass.scores().length; f++) {
                StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%.2f", (f + 1) * frame));
                for (float v : pass.scores()[f]) sb.append(',').append(String.format(Locale.ROOT, "%.6f", v));
                w.write(sb.toString());
                w.newLine();
            }
        }
    }
}
