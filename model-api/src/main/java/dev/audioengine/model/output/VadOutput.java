package dev.audioengine.model.output;

import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import java.io.IOException;
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
     * The format for segments files, by {@code formatName} when given, else by the file's
     * extension (for one input) or JSON (for several, where the path is a folder); checked before
     * any work is done.
     *
     * @param file the segments file (one input) or folder (several)
     * @param formatName a {@code --format} name, or null
     * @param inputs how many recordings are processed
     * @return the format to write every segments file in
     * @throws IllegalArgumentException if the name is unknown, or one input's file extension selects no format
     */
    public static SegmentFormat segmentsFormat(Path file, String formatName, int inputs) {
        if (inputs > 1) return formatName == null ? SegmentFormat.JSON : SegmentFormat.named(formatName);
        return SegmentFormat.choose(file, formatName);
    }

    /**
     * The segments as the output writers take them, labelled "speech".
     *
     * @param segments the VAD's segments
     * @return one {@link Segment} per segment, same samples and rate, no text
     */
    public static List<Segment> labelled(List<SpeechSegment> segments) {
        return segments.stream()
                .map(s -> new Segment(s.startSample(), s.endSample(), s.sampleRate(), "speech", null))
                .toList();
    }

    /**
     * What a JSON segments file records besides the segments: rate, model, mode and every option
     * (get_speech_timestamps' names).
     *
     * @param sampleRate the rate the VAD ran at
     * @param model what {@code TaskModel.describe()} said
     * @param streaming true for the streaming detector, false for the offline one
     * @param o the options used; the effective negative threshold is recorded, not NaN
     * @return a new ordered map for {@link SegmentWriter}
     */
    public static Map<String, Object> properties(int sampleRate, String model, boolean streaming, VadOptions o) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("sample_rate", sampleRate);
        p.put("model", model);
        p.put("mode", streaming ? "streaming" : "offline");
        p.put("threshold", o.threshold());
        p.put("neg_threshold", o.effectiveNegThreshold());
        p.put("min_speech_ms", o.minSpeechMs());
        p.put("min_silence_ms", o.minSilenceMs());
        p.put("speech_pad_ms", o.speechPadMs());
        p.put("max_speech_s", o.maxSpeechS()); // infinity (no limit) is written as null
        return p;
    }

    /**
     * Writes the segments, labelled "speech", in a format.
     *
     * @param file the output file, created or truncated
     * @param format the file format; JSON is the only one that records {@code properties}
     * @param audio what names the recording (its file name)
     * @param properties extra JSON members, usually {@link #properties}
     * @param segments the VAD's segments
     * @throws IOException if the file cannot be written
     */
    public static void writeSegments(
            Path file, SegmentFormat format, String audio, Map<String, ?> properties, List<SpeechSegment> segments)
            throws IOException {
        SegmentWriter.write(file, format, audio, properties, labelled(segments));
    }

    /**
     * The speech alone (collect_chunks) as a 32-bit float mono WAV at the rate the VAD ran at.
     *
     * @param wav the output file, created or truncated
     * @param audio the whole recording at {@code sampleRate}
     * @param sampleRate the rate the VAD ran at, {@code > 0}
     * @param segments the speech segments, in order
     * @throws IOException if the file cannot be written
     * @throws IllegalArgumentException if a segment is out of order or outside the audio
     */
    public static void writeSpeech(Path wav, float[] audio, int sampleRate, List<SpeechSegment> segments)
            throws IOException {
        WavWriter.writeFloat(wav, SpeechAudio.collect(audio, segments), sampleRate);
    }
}
