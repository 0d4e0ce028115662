package dev.audioengine.cli.task;

import picocli.CommandLine.Option;

/**
 * {@code --threshold}, which both --task vad and --task kws take: picocli allows an option name once per command, so it
 * is declared here once and each task reads it from here.
 */
final class ThresholdOption {
    @Option(
            names = "--threshold",
            paramLabel = "P",
            description = "vad: the speech probability at or above which a chunk is speech; kws: the score at or above "
                    + "which a frame detects a keyword. Default: 0.5.")
    double threshold = 0.5;
}
