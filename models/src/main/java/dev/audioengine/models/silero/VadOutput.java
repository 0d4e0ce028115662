package dev.audioengine.models.silero;

import dev.audioengine.model.output.Segment;
import dev.audioengine.model.output.SegmentFormat;
import dev.audioengine.model.output.SegmentWriter;
import dev.audioengine.model.output.WavWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files a VAD run writes: its segments in any {@link SegmentFormat} (each labelled
 * "speech"; JSON also records the model and the options) and the speech-only audio.
 */
public final class VadOutput {
    private VadOutput() {}

    /**
     * The format for a segments file, by {@code formatName} when given, else by the extension,
     * checked before any work is done: an unknown format or a missing folder fails here.
     */
    public static SegmentFormat checkSegmentsFile(Path file, String formatName) {
        SegmentFormat f = SegmentFormat.choose(file, formatName);
        checkFolder(file);
        return f;
    }

    /** Fails unless {@code file}'s folder exists, so that a run does not end in an unwritable path. */
    public static void checkFolder(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) throw new IllegalArgumentException("cannot write " + file + ": folder " + dir + " does not exist");
    }

    /** The segments as the output writers take them, labelled "speech". */
    public static List<Segment> labelled(List<SpeechSegment> segments) {
        return segments.stream().map(s -> new Segment(s.startSample(), s.endSample(), s.sampleRate(), "speech", null)).toList();
    }

    /** What a JSON segments file records besides the segments: rate, model, mode and every option (get_speech_timestamps' names). */
    public static Map<String, Object> properties(int sampleRate, String model, String modelPath, boolean streaming, VadOptions o) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("sample_rate", sampleRate);
        p.put("model", model);
        p.put("model_path", modelPath);
        p.put("mode", streaming ? "streaming" : "offline");
        p.put("threshold", o.threshold());
        p.put("neg_threshold", o.effectiveNegThreshold());
        p.put("min_speech_ms", o.minSpeechMs());
        p.put("min_silence_ms", o.minSilenceMs());
        p.put("speech_pad_ms", o.speechPadMs());
        p.put("max_speech_s", o.maxSpeechS()); // infinity (no limit) is written as null
        return p;
    }

    public static void writeSegments(Path file, SegmentFormat format, String audio, Map<String, ?> properties, List<SpeechSegment> segments)
            throws IOException {
        SegmentWriter.write(file, format, audio, properties, labelled(segments));
    }

    /** The speech alone (collect_chunks) as a 32-bit float mono WAV at the rate the VAD ran at. */
    public static void writeSpeech(Path wav, float[] audio, int sampleRate, List<SpeechSegment> segments) throws IOException {
        WavWriter.writeFloat(wav, SpeechAudio.collect(audio, segments), sampleRate);
    }
}
