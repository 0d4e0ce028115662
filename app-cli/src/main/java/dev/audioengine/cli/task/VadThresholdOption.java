package dev.audioengine.cli.task;

import picocli.CommandLine.Option;

/**
 * {@code --vad-threshold}, which both --task asr and --task kws take (picocli allows an option name once per command,
 * as {@link ThresholdOption} says): asr finds its windows with the voice activity detector at this threshold, kws counts
 * a keyword only where the detector heard speech at this threshold.
 */
final class VadThresholdOption {
    @Option(
            names = "--vad-threshold",
            paramLabel = "P",
            description = "asr: speech threshold of the voice activity detector that finds the windows. Default: 0.5. "
                    + "kws: count a keyword's score only where Silero VAD heard speech (probability at least P, in "
                    + "(0, 1)) 4 to 6 frames (320-480 ms) before it, as openWakeWord's vad_threshold, with silero_vad "
                    + "loaded beside the keyword model (default: off).")
    Double value;
}
