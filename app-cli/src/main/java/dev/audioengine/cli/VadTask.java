package dev.audioengine.cli;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.models.ModelStore;
import dev.audioengine.models.silero.SileroModelFiles;
import dev.audioengine.models.silero.SileroVad;
import dev.audioengine.models.silero.SileroVadFamily;
import dev.audioengine.models.silero.SpeechEvent;
import dev.audioengine.models.silero.SpeechSegment;
import dev.audioengine.models.silero.SpeechTimestamps;
import dev.audioengine.models.silero.StreamingSession;
import dev.audioengine.models.silero.VadOptions;
import dev.audioengine.models.silero.VadOutput;
import dev.audioengine.model.output.SegmentFormat;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code --task vad}: Silero VAD over a WAV file, offline or through the streaming API. */
final class VadTask {
    private static final System.Logger LOG = System.getLogger(VadTask.class.getName());

    /** Streaming mode feeds the file in pieces of this many milliseconds, as a live source would. */
    private static final int STREAM_PIECE_MS = 20;

    @Option(names = "--family", paramLabel = "NAME", description = "Model family: silero_vad (the only VAD family). Default: silero_vad.")
    String family = "silero_vad";

    @Option(names = "--model", paramLabel = "silero_vad|PATH", description = "silero_vad (v6), silero_vad_v5, silero_vad_v6 "
            + "(pulled into the model cache on first use), or the path of silero_vad_v5.onnx / silero_vad_v6.onnx. Default: silero_vad.")
    String model;

    @Option(names = "--audio", paramLabel = "WAV", description = "Input WAV (PCM 8/16/24/32-bit or float, any channels, any rate; "
            + "8 and 16 kHz are used as they are, other rates are resampled to 16 kHz).")
    Path audio;

    @Option(names = "--mode", paramLabel = "offline|streaming", description = "offline: whole file, batched (default); "
            + "streaming: chunk by chunk through the streaming API, printing each segment as it closes.")
    String mode = "offline";

    @Option(names = "--segments-out", paramLabel = "FILE", description = "Write the segments in the format of the file's extension: "
            + ".json (with the model and options), .csv, .srt, .vtt, .rttm, .txt (Audacity labels); --format overrides.")
    Path segmentsOut;

    @Option(names = "--format", paramLabel = "NAME", description = "Format of --segments-out: json, csv, srt, vtt, rttm, audacity. "
            + "Default: by the file's extension.")
    String format;

    @Option(names = "--speech-out", paramLabel = "WAV", description = "Write the speech alone (the segments joined, Silero's "
            + "collect_chunks) as a 32-bit float WAV at the rate the VAD ran at (8 or 16 kHz).")
    Path speechOut;

    @Option(names = "--probabilities-out", paramLabel = "FILE", description = "Write one speech probability per chunk per line.")
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

    @Option(names = "--json", description = "Print segments as JSON lines ({\"start\":s,\"end\":s}) instead of text.")
    boolean json;

    void run(AudioEngineCommand top, PrintWriter out, PrintWriter err) throws IOException {
        SileroVadFamily silero = new SileroVadFamily();
        if (!family.equals(silero.name())) {
            throw new IllegalArgumentException("unknown --family '" + family + "' for --task " + silero.task() + "; families: " + silero.name());
        }
        if (audio == null) throw new IllegalArgumentException("--task vad needs --audio WAV");
        boolean streaming = switch (mode.toLowerCase(Locale.ROOT)) {
            case "offline" -> false;
            case "streaming" -> true;
            default -> throw new IllegalArgumentException("unknown --mode '" + mode + "'; valid: offline, streaming");
        };
        VadOptions options = new VadOptions(threshold, negThreshold == null ? Double.NaN : negThreshold, minSpeechMs, minSilenceMs,
                speechPadMs, maxSpeechS == null ? Double.POSITIVE_INFINITY : maxSpeechS);
        SegmentFormat segmentsFormat = segmentsOut == null ? null : VadOutput.checkSegmentsFile(segmentsOut, format);
        if (format != null && segmentsOut == null) throw new IllegalArgumentException("--format names the format of --segments-out; give --segments-out FILE");
        if (speechOut != null) VadOutput.checkFolder(speechOut);
        AudioClip clip = WavReader.read(audio);
        if (clip.sampleRate() != 8000 && clip.sampleRate() != 16000) {
            err.println("audioengine: resampling " + audio + " from " + clip.sampleRate() + " Hz to 16000 Hz");
            err.flush();
            clip = clip.resampledTo(16000);
        }
        Path modelPath = SileroModelFiles.resolve(model, ModelStore.userCache(), msg -> { err.println("audioengine: " + msg); err.flush(); });

        try (AudioEngine engine = top.engineBuilder().build(); SileroVad vad = SileroVad.load(engine, modelPath)) {
            List<SpeechSegment> segments = new ArrayList<>();
            float[] probs;
            long t0 = System.nanoTime();
            if (!streaming) {
                probs = vad.probabilities(clip.samples(), clip.sampleRate());
                segments = SpeechTimestamps.segments(probs, vad.chunkSize(clip.sampleRate()), clip.samples().length, clip.sampleRate(), options);
                for (SpeechSegment s : segments) printSegment(out, s.startSeconds(), s.endSeconds());
            } else {
                probs = stream(vad, clip, options, segments, out);
            }
            out.flush();
            summarize(err, segments, clip, vad.version(), engine, (System.nanoTime() - t0) / 1e9);
            vad.runSummary().ifPresent(s -> {
                // a CPU fallback changes speed and copies memory every run: say so without being asked
                if (!s.fallbackNodes().isEmpty()) err.println("audioengine: run summary: " + s.describe());
                else LOG.log(System.Logger.Level.INFO, () -> "run summary: " + s.describe());
            });
            if (probabilitiesOut != null) writeProbabilities(probs);
            if (segmentsOut != null) {
                VadOutput.writeSegments(segmentsOut, segmentsFormat, audio.toString(),
                        VadOutput.properties(clip.sampleRate(), "silero_vad_" + vad.version(), modelPath.toString(), streaming, options), segments);
            }
            if (speechOut != null) VadOutput.writeSpeech(speechOut, clip.samples(), clip.sampleRate(), segments);
        }
    }

    /** Feeds the clip in short pieces; prints each segment the moment its end is known. */
    private float[] stream(SileroVad vad, AudioClip clip, VadOptions options, List<SpeechSegment> segments, PrintWriter out) {
        int rate = clip.sampleRate(), piece = rate * STREAM_PIECE_MS / 1000;
        float[] x = clip.samples();
        List<float[]> probs = new ArrayList<>();
        long[] open = {-1};
        try (StreamingSession s = vad.stream(rate, options)) {
            for (int i = 0; i < x.length + piece; i += piece) { // the last pass finishes: the partial chunk, an open segment
                StreamingSession.Result r = i < x.length
                        ? s.accept(java.util.Arrays.copyOfRange(x, i, Math.min(x.length, i + piece))) : s.finish();
                probs.add(r.probabilities());
                for (SpeechEvent e : r.events()) {
                    if (e.kind() == SpeechEvent.Kind.START) {
                        open[0] = e.sample();
                    } else {
                        SpeechSegment seg = new SpeechSegment(open[0], e.sample(), rate);
                        segments.add(seg);
                        printSegment(out, seg.startSeconds(), seg.endSeconds());
                        out.flush();
                    }
                }
            }
        }
        int n = probs.stream().mapToInt(p -> p.length).sum(), k = 0;
        float[] all = new float[n];
        for (float[] p : probs) { System.arraycopy(p, 0, all, k, p.length); k += p.length; }
        return all;
    }

    /** One line for people on stderr, so stdout stays the segments alone. */
    private static void summarize(PrintWriter err, List<SpeechSegment> segments, AudioClip clip, String version,
                                  AudioEngine engine, double seconds) {
        double speech = segments.stream().mapToDouble(s -> s.endSeconds() - s.startSeconds()).sum();
        double length = (double) clip.samples().length / clip.sampleRate();
        err.println(String.format(Locale.ROOT, "audioengine: %d speech segment%s, %.2f s of speech in %.2f s of audio"
                        + " (silero_vad %s on %s, %.0f ms wall, %.0fx real time incl. start-up)", segments.size(), segments.size() == 1 ? "" : "s",
                speech, length, version, engine.backend().registryName(), seconds * 1e3, length / Math.max(seconds, 1e-9)));
        err.flush();
    }

    private void printSegment(PrintWriter out, double start, double end) {
        if (json) out.println(String.format(Locale.ROOT, "{\"start\":%.3f,\"end\":%.3f}", start, end));
        else out.println(String.format(Locale.ROOT, "%.3f - %.3f", start, end));
    }

    private void writeProbabilities(float[] probs) throws IOException {
        StringBuilder sb = new StringBuilder(probs.length * 9);
        for (float p : probs) sb.append(String.format(Locale.ROOT, "%.6f%n", p));
        Files.writeString(probabilitiesOut, sb, StandardCharsets.UTF_8);
    }
}
