package dev.audioengine.cli.task;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.output.NoteOutput;
import dev.audioengine.model.task.NoteEvent;
import dev.audioengine.model.task.NoteOptions;
import dev.audioengine.model.task.NoteTranscriber;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code --task notes}: the notes in each input (music transcription), printed one per line ('start end pitch
 * velocity', seconds and MIDI numbers, sorted by start) or as JSON, and written as a Standard MIDI File with
 * {@code --out} and as CSV with {@code --csv}.
 */
final class NotesTask {
    /** --out (the MIDI file), shared with --task tts: set by TaskOptions. */
    Path midiOut;

    @Option(
            names = "--csv",
            paramLabel = "FILE",
            description =
                    "Write the notes as CSV: start,end,pitch,velocity,amplitude (with several inputs: an existing "
                            + "folder, one FILE.notes.csv per input).")
    Path csvOut;

    @Option(
            names = "--onset-threshold",
            paramLabel = "P",
            description = "An onset activation above this starts a note, in (0, 1). Default: 0.5 (Basic Pitch's).")
    double onsetThreshold = NoteOptions.DEFAULTS.onsetThreshold();

    @Option(
            names = "--frame-threshold",
            paramLabel = "P",
            description = "A note lasts while its activation stays at or above this, in (0, 1). Default: 0.3.")
    double frameThreshold = NoteOptions.DEFAULTS.frameThreshold();

    @Option(
            names = "--min-note-frames",
            paramLabel = "N",
            description = "Drop notes of N model frames or fewer (a frame is 256 samples at 22050 Hz, 11.6 ms). "
                    + "Default: 5.")
    int minNoteFrames = NoteOptions.DEFAULTS.minNoteFrames();

    @Option(
            names = "--no-melodia",
            description = "Only notes that start at an onset: no second pass over the remaining activations "
                    + "(Basic Pitch's melodia trick, on by default).")
    boolean noMelodia;

    @Option(
            names = "--pitch-bends",
            description = "Estimate a pitch bend per frame of each note (JSON: pitch_bends in thirds of a semitone; "
                    + "MIDI: pitch-bend events for a 2-semitone range).")
    boolean pitchBends;

    @Option(names = "--min-freq", paramLabel = "HZ", description = "Ignore notes below this frequency. Default: none.")
    double minFreq;

    @Option(names = "--max-freq", paramLabel = "HZ", description = "Ignore notes above this frequency. Default: none.")
    double maxFreq;

    private NoteOptions options;

    /** Everything that can be wrong with the request itself, checked before a model is pulled or loaded. */
    void checkBeforeLoading(List<Path> inputs) throws IOException {
        if (minNoteFrames < 0) throw new UsageError("--min-note-frames must not be negative, got " + minNoteFrames);
        if (!(onsetThreshold > 0 && onsetThreshold < 1))
            throw new UsageError("--onset-threshold must be between 0 and 1, got " + onsetThreshold);
        if (!(frameThreshold > 0 && frameThreshold < 1))
            throw new UsageError("--frame-threshold must be between 0 and 1, got " + frameThreshold);
        if (!(minFreq >= 0) || !(maxFreq >= 0) || (maxFreq > 0 && minFreq >= maxFreq))
            throw new UsageError("--min-freq and --max-freq must be positive with min below max, got " + minFreq
                    + " and " + maxFreq);
        options = UsageError.of(() -> NoteOptions.DEFAULTS
                .withThresholds(onsetThreshold, frameThreshold)
                .withMinNoteFrames(minNoteFrames)
                .withMelodiaTrick(!noMelodia)
                .withPitchBends(pitchBends)
                .withFrequencyRange(minFreq, maxFreq));
        OutputPaths.check("--out", midiOut, inputs.size());
        OutputPaths.check("--csv", csvOut, inputs.size());
        List<OutputPaths.Output> outs = new ArrayList<>(OutputPaths.outputs("--out", midiOut, inputs, ".mid"));
        outs.addAll(OutputPaths.outputs("--csv", csvOut, inputs, ".notes.csv"));
        OutputPaths.refuseOverwriting(inputs, outs);
    }

    void run(TaskRun run, AudioEngine engine, NoteTranscriber model, List<Path> inputs) throws IOException {
        JsonWriter doc = run.json && inputs.size() > 1 ? new JsonWriter().beginArray() : null;
        for (Path input : inputs) {
            long t0 = System.nanoTime();
            List<NoteEvent> notes;
            double seconds;
            try {
                float[] samples = read(input, model, run);
                seconds = samples.length / (double) model.sampleRate();
                notes = NoteOutput.sorted(model.transcribe(samples, model.sampleRate(), options));
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                if (inputs.size() == 1) throw e;
                String message = run.inputFailed(input, e);
                run.failedInputJson(doc, input, message);
                continue;
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            if (run.json) {
                JsonWriter w = doc != null ? doc : new JsonWriter();
                w.beginObject()
                        .name("audio")
                        .value(input.toString())
                        .name("model")
                        .value(model.describe())
                        .name("backend")
                        .value(engine.backend().registryName())
                        .name("audio_seconds")
                        .number(seconds)
                        .name("realtime_factor")
                        .number(seconds / Math.max(wall, 1e-9));
                NoteOutput.json(w, options, notes);
                w.endObject();
                if (doc == null) run.out.println(w);
            } else {
                String prefix = inputs.size() > 1 ? input + ": " : "";
                for (NoteEvent n : notes) run.out.println(prefix + line(n));
            }
            run.out.flush();
            if (midiOut != null)
                write(OutputPaths.forInput(midiOut, input, inputs.size(), ".mid"), NoteOutput.midi(notes));
            if (csvOut != null)
                write(
                        OutputPaths.forInput(csvOut, input, inputs.size(), ".notes.csv"),
                        NoteOutput.csv(notes).getBytes(StandardCharsets.UTF_8));
            run.note(String.format(
                    Locale.ROOT,
                    "%s%d note%s in %.2f s of audio (%s on %s, %.0f ms wall incl. decoding, %.0fx real time)",
                    input.equals(AudioInputs.STDIN) ? "" : input.getFileName() + ": ",
                    notes.size(),
                    notes.size() == 1 ? "" : "s",
                    seconds,
                    model.describe(),
                    engine.backend().registryName(),
                    wall * 1e3,
                    seconds / Math.max(wall, 1e-9)));
        }
        if (doc != null) run.out.println(doc.endArray());
        run.out.flush();
        run.runSummary(model);
        run.failIfInputsFailed(inputs.size());
    }

    static String line(NoteEvent n) {
        return String.format(Locale.ROOT, "%.3f %.3f %d %d", n.startSeconds(), n.endSeconds(), n.pitch(), n.velocity());
    }

    /** The whole input, mono at the model's rate. */
    private static float[] read(Path input, NoteTranscriber model, TaskRun run) throws IOException {
        try (AudioStream in0 = AudioInputs.open(input, AudioStream.BEST_AUDIO_STREAM, w -> run.note("warning: " + w))) {
            AudioStream in = in0;
            if (in.sourceRate() != model.sampleRate()) {
                run.note("resampling " + AudioInputs.describe(input) + " from " + in.sourceRate() + " Hz to "
                        + model.sampleRate() + " Hz");
                in = in.resampleTo(model.sampleRate());
            }
            return in.readAll().samples();
        }
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        try (ReplacingFile f = new ReplacingFile(file)) {
            Files.write(f.temp(), bytes);
            f.commit();
        }
    }
}
