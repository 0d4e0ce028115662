package dev.audioengine.cli.task;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.output.SegmentFormat;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options every task that reads audio into segments takes ({@code --task vad}, {@code --task asr}): picocli allows
 * an option name once per command, so they are declared here once and each task reads them from here.
 */
final class AudioTaskOptions {
    /** --mode, which tts takes too: set by TaskOptions before the task's checks. */
    ModeOption mode = new ModeOption();

    @Option(
            names = "--segments-out",
            paramLabel = "FILE",
            description =
                    "Write the segments in the format of the file's extension: "
                            + ".json (with the model and options; asr: with the text), .csv, .srt, .vtt, .rttm, .txt (Audacity labels); --format "
                            + "overrides (with several inputs: an existing folder, one FILE.segments.EXT per input, JSON unless --format).")
    Path segmentsOut;

    @Option(
            names = "--format",
            paramLabel = "NAME",
            description = "Format of --segments-out: json, csv, srt, vtt, rttm, audacity. "
                    + "Default: by the file's extension.")
    String format;

    @Option(
            names = "--audio-stream",
            paramLabel = "N",
            description = "Decode the N-th audio stream of each input, counting audio streams only, from 0 (a video's "
                    + "second soundtrack is 1). Default: the best one, as FFmpeg ranks them (WAV and libsndfile's "
                    + "formats hold one).")
    Integer audioStream;

    /** The stream to open, as AudioStream takes it; a negative --audio-stream is a usage error. */
    int audioStream() {
        if (audioStream == null) return AudioStream.BEST_AUDIO_STREAM;
        if (audioStream < 0)
            throw new UsageError("--audio-stream counts audio streams from 0 (the first), not " + audioStream);
        return audioStream;
    }

    boolean streaming() {
        return mode.streaming();
    }

    /** Checks --segments-out and --format before any work; the format to write, or null without --segments-out. */
    SegmentFormat segmentsFormat(int inputs) throws IOException {
        OutputPaths.check("--segments-out", segmentsOut, inputs);
        if (format != null && segmentsOut == null)
            throw new UsageError("--format names the format of --segments-out; give --segments-out FILE");
        if (segmentsOut == null) return null;
        // with several inputs the path is a folder, which has no extension to go by
        if (inputs > 1) return format == null ? SegmentFormat.JSON : UsageError.of(() -> SegmentFormat.named(format));
        return UsageError.of(() -> SegmentFormat.choose(segmentsOut, format));
    }

    /** Where the segments of {@code input} go: --segments-out itself with one input, else a file in that folder. */
    Path segmentsFile(Path input, int inputs, SegmentFormat format) {
        return OutputPaths.forInput(segmentsOut, input, inputs, ".segments." + format.extension());
    }
}
