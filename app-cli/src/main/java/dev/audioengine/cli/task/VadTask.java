package dev.audioengine.cli.task;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.output.SegmentFormat;
import dev.audioengine.model.output.VadOutput;
import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VadStream;
import dev.audioengine.model.task.VoiceActivityDetector;
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

/** {@code --task vad}: speech segments of each input, offline or through the streaming API. */
final class VadTask {
    /** Streaming mode feeds the file in pieces of this many milliseconds, as a live source would. */
    private static final int STREAM_PIECE_MS = 20;

    /** Offline mode reads and detects this many samples at a time: 16 s at 16 kHz, one offline graph batch of Silero. */
    private static final int OFFLINE_BLOCK = 1 << 18;

    @Option(
            names = "--speech-out",
            paramLabel = "WAV",
            description =
                    "Write the speech alone (the segments joined, Silero's "
                            + "collect_chunks) as a 32-bit float WAV at the rate the model ran at (with several inputs: a folder, FILE.speech.wav each).")
    Path speechOut;

    @Option(
            names = "--probabilities-out",
            paramLabel = "FILE",
            description = "Write one speech probability per chunk per line "
                    + "(with several inputs: an existing folder, one FILE.probabilities.txt per input).")
    Path probabilitiesOut;

    /** --threshold, shared with --task kws: set by TaskOptions before the task's checks. */
    ThresholdOption threshold = new ThresholdOption();

    @Option(
            names = "--neg-threshold",
            paramLabel = "P",
            description = "Speech ends below this. Default: threshold - 0.15.")
    Double negThreshold;

    @Option(names = "--min-speech-ms", paramLabel = "MS", description = "Drop shorter segments. Default: 250.")
    int minSpeechMs = 250;

    @Option(names = "--min-silence-ms", paramLabel = "MS", description = "Silence that ends a segment. Default: 100.")
    int minSilenceMs = 100;

    @Option(
            names = "--speech-pad-ms",
            paramLabel = "MS",
            description = "Padding on each side of a segment. Default: 30.")
    int speechPadMs = 30;

    @Option(names = "--max-speech-s", paramLabel = "S", description = "Split longer segments. Default: no limit.")
    Double maxSpeechS;

    private AudioTaskOptions shared;
    private VadOptions options;
    private boolean streaming;
    private SegmentFormat segmentsFormat;

    /** Everything that can be wrong with the request itself, checked before a model is pulled or loaded. */
    void checkBeforeLoading(AudioTaskOptions shared, List<Path> inputs) throws IOException {
        this.shared = shared;
        streaming = shared.streaming();
        options = UsageError.of(() -> new VadOptions(
                threshold.threshold,
                negThreshold == null ? Double.NaN : negThreshold,
                minSpeechMs,
                minSilenceMs,
                speechPadMs,
                maxSpeechS == null ? Double.POSITIVE_INFINITY : maxSpeechS));
        segmentsFormat = shared.segmentsFormat(inputs.size());
        OutputPaths.check("--probabilities-out", probabilitiesOut, inputs.size());
        OutputPaths.check("--speech-out", speechOut, inputs.size());
        List<OutputPaths.Output> outputs =
                new ArrayList<>(OutputPaths.outputs("--speech-out", speechOut, inputs, ".speech.wav"));
        outputs.addAll(OutputPaths.outputs("--probabilities-out", probabilitiesOut, inputs, ".probabilities.txt"));
        if (segmentsFormat != null) {
            outputs.addAll(OutputPaths.outputs(
                    "--segments-out", shared.segmentsOut, inputs, ".segments." + segmentsFormat.extension()));
        }
        OutputPaths.refuseOverwriting(inputs, outputs);
    }

    void run(TaskRun run, AudioEngine engine, VoiceActivityDetector vad, List<Path> inputs) throws IOException {
        JsonWriter doc = run.json && !streaming && inputs.size() > 1 ? new JsonWriter().beginArray() : null;
        for (Path input : inputs) {
            String prefix = inputs.size() > 1 && !run.json ? input + ": " : "";
            long t0 = System.nanoTime();
            Pass pass;
            try {
                pass = detect(input, vad, run, prefix);
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                // one file that cannot be decoded does not cost the others: reported, skipped, exit 1 at the end
                if (inputs.size() == 1) throw e;
                String message = run.inputFailed(input, e);
                run.failedInputJson(doc, input, message);
                run.out.flush();
                continue;
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            if (!streaming) {
                if (run.json) {
                    JsonWriter w = doc != null ? doc : new JsonWriter();
                    resultJson(w, input, pass, vad, engine, wall);
                    if (doc == null) run.out.println(w);
                } else {
                    for (SpeechSegment s : pass.segments()) run.out.println(prefix + line(s));
                }
            }
            run.out.flush();
            summarize(run, input, pass, vad, engine, wall);
            if (probabilitiesOut != null) {
                writeProbabilities(
                        OutputPaths.forInput(probabilitiesOut, input, inputs.size(), ".probabilities.txt"),
                        pass.probabilities());
            }
            if (segmentsFormat != null) {
                VadOutput.writeSegments(
                        shared.segmentsFile(input, inputs.size(), segmentsFormat),
                        segmentsFormat,
                        input.toString(),
                        VadOutput.properties(pass.rate(), vad.describe(), streaming, options),
                        pass.segments());
            }
            if (speechOut != null) {
                VadOutput.writeSpeech(
                        OutputPaths.forInput(speechOut, input, inputs.size(), ".speech.wav"),
                        pass.kept().toArray(),
                        pass.rate(),
                        pass.segments());
            }
        }
        if (doc != null) run.out.println(doc.endArray());
        run.out.flush();
        run.runSummary(vad);
        run.failIfInputsFailed(inputs.size());
    }

    /**
     * What one input gave: its probabilities and segments, its length and rate, and its samples only when --speech-out
     * needs them again (otherwise nothing of the audio is kept: decoding, resampling and detection run block by block).
     */
    private record Pass(float[] probabilities, List<SpeechSegment> segments, long samples, int rate, FloatList kept) {
        double seconds() {
            return samples / (double) rate;
        }
    }

    private Pass detect(Path input, VoiceActivityDetector vad, TaskRun run, String prefix) throws IOException {
        try (AudioStream in = open(input, vad, run)) {
            int rate = in.sampleRate();
            double total = in.durationSeconds().orElse(0);
            FloatList probs = new FloatList(), kept = speechOut != null ? new FloatList() : null;
            List<SpeechSegment> segments = new ArrayList<>();
            String name = input.equals(AudioInputs.STDIN)
                    ? "stdin"
                    : input.getFileName().toString();
            long t0 = System.nanoTime();
            if (streaming) {
                float[] piece = new float[rate * STREAM_PIECE_MS / 1000];
                long[] open = {-1};
                try (VadStream s = vad.stream(rate, options)) {
                    for (int n; (n = in.read(piece, 0, piece.length)) >= 0; ) {
                        if (n == 0) continue;
                        float[] p = n == piece.length ? piece : Arrays.copyOf(piece, n);
                        if (kept != null) kept.add(p, 0, n);
                        events(s.accept(p), open, rate, probs, segments, run, prefix);
                        run.progress(name, in.samplesRead() / (double) rate, total, (System.nanoTime() - t0) / 1e9);
                    }
                    events(s.finish(), open, rate, probs, segments, run, prefix);
                }
            } else {
                float[] block = new float[OFFLINE_BLOCK];
                try (OfflineVad o = vad.offline(rate, options)) {
                    for (int n; (n = in.read(block, 0, block.length)) >= 0; ) {
                        if (kept != null) kept.add(block, 0, n);
                        OfflineVad.Result r = o.accept(block, 0, n);
                        probs.add(r.probabilities(), 0, r.probabilities().length);
                        segments.addAll(r.segments());
                        run.progress(name, in.samplesRead() / (double) rate, total, (System.nanoTime() - t0) / 1e9);
                    }
                    OfflineVad.Result r = o.finish();
                    probs.add(r.probabilities(), 0, r.probabilities().length);
                    segments.addAll(r.segments());
                }
            }
            run.endProgress();
            return new Pass(probs.toArray(), segments, in.samplesRead(), rate, kept);
        }
    }

    /** Opens the input as a stream at a rate the detector runs at natively (8 and 16 kHz stay as they are for Silero). */
    private AudioStream open(Path input, VoiceActivityDetector vad, TaskRun run) throws IOException {
        AudioStream in = AudioInputs.open(input, shared.audioStream(), w -> run.note("warning: " + w));
        if (!vad.sampleRates().contains(in.sourceRate())) {
            int to = vad.sampleRates().stream().max(Integer::compare).orElseThrow();
            run.note("resampling " + AudioInputs.describe(input) + " from " + in.sourceRate() + " Hz to " + to + " Hz");
            in = in.resampleTo(to);
        }
        return in;
    }

    /** Streaming: a segment is printed the moment its end is known. */
    private static void events(
            VadStream.Result r,
            long[] open,
            int rate,
            FloatList probs,
            List<SpeechSegment> segments,
            TaskRun run,
            String prefix) {
        probs.add(r.probabilities(), 0, r.probabilities().length);
        for (SpeechEvent e : r.events()) {
            if (e.kind() == SpeechEvent.Kind.START) {
                open[0] = e.sample();
            } else {
                SpeechSegment seg = new SpeechSegment(open[0], e.sample(), rate);
                segments.add(seg);
                run.endProgress();
                run.out.println(run.json ? prefixJson(prefix, seg) : prefix + line(seg));
                run.out.flush();
            }
        }
    }

    private static double millis(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    private static String line(SpeechSegment s) {
        return String.format(Locale.ROOT, "%.3f - %.3f", s.startSeconds(), s.endSeconds());
    }

    /** One JSON line per closed segment, times in milliseconds precision like the text lines. */
    private static String prefixJson(String prefix, SpeechSegment s) {
        String audio = prefix.isEmpty()
                ? ""
                : new JsonWriter()
                        .beginObject()
                        .name("audio")
                        .value(prefix.substring(0, prefix.length() - 2))
                        .endObject()
                        .toString()
                        .replaceFirst("}$", ",")
                        .substring(1);
        return String.format(Locale.ROOT, "{%s\"start\":%.3f,\"end\":%.3f}", audio, s.startSeconds(), s.endSeconds());
    }

    private void resultJson(
            JsonWriter w, Path input, Pass pass, VoiceActivityDetector vad, AudioEngine engine, double wall) {
        double length = pass.seconds();
        List<SpeechSegment> segments = pass.segments();
        w.beginObject()
                .name("audio")
                .value(input.toString())
                .name("model")
                .value(vad.describe())
                .name("backend")
                .value(engine.backend().registryName())
                .name("audio_seconds")
                .number(length)
                .name("realtime_factor")
                .number(length / Math.max(wall, 1e-9))
                .name("segments")
                .beginArray();
        for (SpeechSegment s : segments)
            w.beginObject()
                    .name("start")
                    .number(millis(s.startSeconds()))
                    .name("end")
                    .number(millis(s.endSeconds()))
                    .endObject();
        w.endArray().endObject();
    }

    /** One line for people on stderr, so stdout stays the segments alone. */
    private static void summarize(
            TaskRun run, Path input, Pass pass, VoiceActivityDetector vad, AudioEngine engine, double seconds) {
        List<SpeechSegment> segments = pass.segments();
        double speech = segments.stream()
                .mapToDouble(s -> s.endSeconds() - s.startSeconds())
                .sum();
        double length = pass.seconds();
        run.note(String.format(
                Locale.ROOT,
                "%s%d speech segment%s, %.2f s of speech in %.2f s of audio (%s on %s, %.0f ms wall incl. decoding, %.0fx real time)",
                input.equals(AudioInputs.STDIN) ? "" : input.getFileName() + ": ",
                segments.size(),
                segments.size() == 1 ? "" : "s",
                speech,
                length,
                vad.describe(),
                engine.backend().registryName(),
                seconds * 1e3,
                length / Math.max(seconds, 1e-9)));
    }

    private static void writeProbabilities(Path file, float[] probs) throws IOException {
        StringBuilder sb = new StringBuilder(probs.length * 9);
        for (float p : probs) sb.append(String.format(Locale.ROOT, "%.6f%n", p));
        Files.writeString(file, sb, StandardCharsets.UTF_8);
    }
}
