package dev.audioengine.cli.task;

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
