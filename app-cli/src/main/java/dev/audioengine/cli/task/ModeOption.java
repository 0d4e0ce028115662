package dev.audioengine.cli.task;

import dev.audioengine.cli.UsageError;
import java.util.Locale;
import picocli.CommandLine.Option;

/** {@code --mode}, which every task takes: picocli allows an option name once per command, so it is declared here once. */
final class ModeOption {
    @Option(
            names = "--mode",
            paramLabel = "offline|streaming",
            description =
                    "offline: the whole input at once (default); streaming: "
                            + "vad and asr are fed in 20 ms pieces through the streaming API, each segment printed as it closes (asr: partial text "
                            + "shown on a terminal as it grows); kws is fed in 80 ms pieces, JSON then one line per detection; tts writes each piece of audio to --out as soon as it is made and reports the "
                            + "time to first audio (offline, standard output gets the WAV once it is complete; memory is bounded either way).")
    String mode = "offline";

    /** Whether --mode asks for streaming; an unknown mode is a usage error. */
    boolean streaming() {
        return switch (mode.toLowerCase(Locale.ROOT)) {
            case "offline" -> false;
            case "streaming" -> true;
            default -> throw new UsageError("unknown --mode '" + mode + "'; valid: offline, streaming");
        };
    }
}
