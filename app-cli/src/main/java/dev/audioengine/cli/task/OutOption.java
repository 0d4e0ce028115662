package dev.audioengine.cli.task;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --out}, which both --task tts (the WAV) and --task notes (the MIDI file) take: picocli allows an option name
 * once per command, so it is declared here once and each task reads it from here.
 */
final class OutOption {
    @Option(
            names = "--out",
            paramLabel = "FILE.wav|-|FILE.mid",
            description = "tts: where the audio goes: a 16-bit PCM mono WAV file (what every "
                    + "player plays), replaced only once the whole audio is written, or - for standard output (then nothing else is printed "
                    + "there; with --mode streaming the WAV sizes are 0xFFFFFFFF, 'to the end of the stream', as ffmpeg writes to a pipe: "
                    + "... --mode streaming --out - | ffplay -nodisp -). Required: there is no default file, so that a run never "
                    + "overwrites a file you did not name. notes: write the notes as a Standard MIDI File (format 1, 120 bpm, 480 "
                    + "ticks per beat; with several inputs: an existing folder, one FILE.mid per input).")
    Path out;
}
