package dev.audioengine.cli;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VadStream;
import dev.audioengine.model.task.VoiceActivityDetector;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code --task vad}: speech segments of each input, offline or through the streaming API. */
final class VadTask {
    private static final System.Logger LOG = System.getLogger(VadTask.class.getName());

    /** Streaming mode feeds the file in pieces of this many milliseconds, as a live source would. */
    private static final int STREAM_PIECE_MS = 20;

    @Option(names = "--mode", paramLabel = "offline|streaming", description = "offline: whole file, batched (default); "
            + "streaming: chunk by chunk through the streaming API, printing each segment as it closes.")
    String mode = "offline";

    @Option(names = "--segments-out", paramLabel = "FILE", description = "Write the segments and options as JSON "
            + "(with several inputs: an existing folder, one FILE.segments.json per input).")
    Path segmentsOut;

    @Option(names = "--probabilities-out", paramLabel = "FILE", description = "Write one speech probability per chunk per line "
            + "(with several inputs: an existing folder, one FILE.probabilities.txt per input).")
    Path probabilitiesOut;

    @Option(names = "--threshold", paramLabel = "P", description = "Speech threshold. Default: 0.5.")
    double threshold = 0.5;

    @Option(names = "--neg-threshold", paramLabel = "P", description = "Speech ends below this. Default: threshold - 0.15.")
    Double negThreshold;

    @Option(names = "--min-speech-ms", paramLabel = "MS", description = "Drop shorter segments. Default: 250.")
    int minSpeechMs = 250;

    @Option(names = "--min-silence-ms", paramLabel = "MS", description = "Silence that ends a segment. Default: 100.")
    int minSilenceMs = 100;

    @Option(names = "--speech-pad-ms", paramLabel = "MS", description = "Padding on each side of a segment. Default: 30.")
    int speechPadMs = 30;

    @Option(names = "--max-speech-s", paramLabel = "S", description = "Split longer segments. Default: no limit.")
    Double maxSpeechS;

    private VadOptions options;
    private boolean streaming;

    /** Everything that can be wrong with the request itself, checked before a model is pulled or loaded. */
    void checkBeforeLoading(List<Path> inputs) throws IOException {
        streaming = switch (mode.toLowerCase(Locale.ROOT)) {
            case "offline" -> false;
            case "streaming" -> true;
            default -> throw new UsageError("unknown --mode '" + mode + "'; valid: offline, streaming");
        };
        options = UsageError.of(() -> new VadOptions(threshold, negThreshold == null ? Double.NaN : negThreshold, minSpeechMs,
                minSilenceMs, speechPadMs, maxSpeechS == null ? Double.POSITIVE_INFINITY : maxSpeechS));
        OutputPaths.check("--segments-out", segmentsOut, inputs.size());
        OutputPaths.check("--probabilities-out", probabilitiesOut, inputs.size());
    }

    void run(TaskRun run, AudioEngine engine, VoiceActivityDetector vad, List<Path> inputs) throws IOException {
        JsonWriter doc = run.json && !streaming && inputs.size() > 1 ? new JsonWriter().beginArray() : null;
        for (Path input : inputs) {
            String prefix = inputs.size() > 1 && !run.json ? input + ": " : "";
            long t0 = System.nanoTime();
            AudioClip clip = decode(input, vad, run);
            List<SpeechSegment> segments = new ArrayList<>();
            float[] probs = streaming ? stream(vad, clip, segments, run, prefix) : offline(vad, clip, segments);
            double wall = (System.nanoTime() - t0) / 1e9;
            if (!streaming) {
                if (run.json) {
                    JsonWriter w = doc != null ? doc : new JsonWriter();
                    resultJson(w, input, clip, vad, engine, segments, wall);
                    if (doc == null) run.out.println(w);
                } else {
                    for (SpeechSegment s : segments) run.out.println(prefix + line(s));
                }
            }
            run.out.flush();
            summarize(run, input, segments, clip, vad, engine, wall);
            if (probabilitiesOut != null) writeProbabilities(OutputPaths.forInput(probabilitiesOut, input, inputs.size(), ".probabilities.txt"), probs);
            if (segmentsOut != null) {
                writeSegments(OutputPaths.forInput(segmentsOut, input, inputs.size(), ".segments.json"), input, segments, clip.sampleRate(), vad);
            }
        }
        if (doc != null) run.out.println(doc.endArray());
        run.out.flush();
        vad.runSummary().ifPresent(s -> {
            // a CPU fallback changes speed and copies memory every run: say so without being asked
            if (!s.fallbackNodes().isEmpty()) run.note("run summary: " + s.describe());
            else LOG.log(System.Logger.Level.INFO, () -> "run summary: " + s.describe());
        });
    }

    private static AudioClip decode(Path input, VoiceActivityDetector vad, TaskRun run) throws IOException {
        AudioClip clip = input.equals(AudioInputs.STDIN) ? WavReader.decode(System.in.readAllBytes(), "standard input") : WavReader.read(input);
        if (!vad.sampleRates().contains(clip.sampleRate())) {
            int to = vad.sampleRates().stream().max(Integer::compare).orElseThrow();
            run.note("resampling " + input + " from " + clip.sampleRate() + " Hz to " + to + " Hz");
            clip = clip.resampledTo(to);
        }
        return clip;
    }

    private float[] offline(VoiceActivityDetector vad, AudioClip clip, List<SpeechSegment> segments) {
        VoiceActivityDetector.Detection d = vad.detect(clip.samples(), clip.sampleRate(), options);
        segments.addAll(d.segments());
        return d.probabilities();
    }

    /** Feeds the clip in short pieces; prints each segment the moment its end is known. */
    private float[] stream(VoiceActivityDetector vad, AudioClip clip, List<SpeechSegment> segments, TaskRun run, String prefix) {
        int rate = clip.sampleRate(), piece = rate * STREAM_PIECE_MS / 1000;
        float[] x = clip.samples();
        List<float[]> probs = new ArrayList<>();
        long[] open = {-1};
        try (VadStream s = vad.stream(rate, options)) {
            for (int i = 0; i <= x.length; i += piece) {
                VadStream.Result r = i < x.length ? s.accept(java.util.Arrays.copyOfRange(x, i, Math.min(x.length, i + piece))) : s.finish();
                probs.add(r.probabilities());
                for (SpeechEvent e : r.events()) {
                    if (e.kind() == SpeechEvent.Kind.START) {
                        open[0] = e.sample();
                    } else {
                        SpeechSegment seg = new SpeechSegment(open[0], e.sample(), rate);
                        segments.add(seg);
                        run.out.println(run.json ? prefixJson(prefix, seg) : prefix + line(seg));
                        run.out.flush();
                    }
                }
            }
        }
        int n = probs.stream().mapToInt(p -> p.length).sum(), k = 0;
        float[] all = new float[n];
        for (float[] p : probs) { System.arraycopy(p, 0, all, k, p.length); k += p.length; }
        return all;
    }

    private static double millis(double seconds) { return Math.round(seconds * 1000) / 1000.0; }

    private static String line(SpeechSegment s) { return String.format(Locale.ROOT, "%.3f - %.3f", s.startSeconds(), s.endSeconds()); }

    /** One JSON line per closed segment, times in milliseconds precision like the text lines. */
    private static String prefixJson(String prefix, SpeechSegment s) {
        String audio = prefix.isEmpty() ? "" : new JsonWriter().beginObject().name("audio").value(prefix.substring(0, prefix.length() - 2))
                .endObject().toString().replaceFirst("}$", ",").substring(1);
        return String.format(Locale.ROOT, "{%s\"start\":%.3f,\"end\":%.3f}", audio, s.startSeconds(), s.endSeconds());
    }

    private void resultJson(JsonWriter w, Path input, AudioClip clip, VoiceActivityDetector vad, AudioEngine engine, List<SpeechSegment> segments,
                            double wall) {
        double length = clip.seconds();
        w.beginObject().name("audio").value(input.toString()).name("model").value(vad.describe())
                .name("backend").value(engine.backend().registryName())
                .name("audio_seconds").number(length).name("realtime_factor").number(length / Math.max(wall, 1e-9))
                .name("segments").beginArray();
        for (SpeechSegment s : segments) w.beginObject().name("start").number(millis(s.startSeconds())).name("end").number(millis(s.endSeconds())).endObject();
        w.endArray().endObject();
    }

    /** One line for people on stderr, so stdout stays the segments alone. */
    private static void summarize(TaskRun run, Path input, List<SpeechSegment> segments, AudioClip clip, VoiceActivityDetector vad,
                                  AudioEngine engine, double seconds) {
        double speech = segments.stream().mapToDouble(s -> s.endSeconds() - s.startSeconds()).sum();
        double length = clip.seconds();
        run.note(String.format(Locale.ROOT, "%s%d speech segment%s, %.2f s of speech in %.2f s of audio (%s on %s, %.0f ms wall incl. decoding, %.0fx real time)",
                input.equals(AudioInputs.STDIN) ? "" : input.getFileName() + ": ", segments.size(), segments.size() == 1 ? "" : "s", speech, length,
                vad.describe(), engine.backend().registryName(), seconds * 1e3, length / Math.max(seconds, 1e-9)));
    }

    private static void writeProbabilities(Path file, float[] probs) throws IOException {
        StringBuilder sb = new StringBuilder(probs.length * 9);
        for (float p : probs) sb.append(String.format(Locale.ROOT, "%.6f%n", p));
        Files.writeString(file, sb, StandardCharsets.UTF_8);
    }

    private void writeSegments(Path file, Path input, List<SpeechSegment> segments, int rate, VoiceActivityDetector vad) throws IOException {
        VadOptions o = options;
        JsonWriter w = new JsonWriter().beginObject()
                .name("audio").value(input.toString())
                .name("sample_rate").value(rate)
                .name("model").value(vad.describe())
                .name("mode").value(streaming ? "streaming" : "offline")
                .name("segments").beginArray();
        for (SpeechSegment s : segments) {
            w.beginObject().name("start").number(s.startSeconds()).name("end").number(s.endSeconds())
                    .name("start_sample").value(s.startSample()).name("end_sample").value(s.endSample()).endObject();
        }
        w.endArray()
                .name("threshold").number(o.threshold())
                .name("neg_threshold").number(o.effectiveNegThreshold())
                .name("min_speech_ms").value(o.minSpeechMs())
                .name("min_silence_ms").value(o.minSilenceMs())
                .name("speech_pad_ms").value(o.speechPadMs())
                .name("max_speech_s");
        if (Double.isInfinite(o.maxSpeechS())) w.value((String) null);
        else w.number(o.maxSpeechS());
        Files.writeString(file, w.endObject() + "\n", StandardCharsets.UTF_8);
    }
}
