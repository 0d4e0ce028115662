package dev.audioengine.cli;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.task.VoiceActivityDetector;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --task} form of the command (audio.cpp's spelling): {@code audioengine --task vad --audio in.wav ...}.
 * The family comes from the registry (the task's default family without {@code --family}), the model from
 * {@code --model NAME|PATH}; the task's own options live in its class. No family is named here: a family jar on the
 * module path serves its tasks without a change to this file.
 */
public final class TaskOptions {
    @Option(names = "--task", paramLabel = "TASK", order = 1,
            description = "Run a model task: vad (voice activity detection); asr and tts when a family that serves them is installed "
                    + "(see 'audioengine models list').")
    private String task;

    @Option(names = "--family", paramLabel = "NAME", description = "Model family (see 'audioengine models list'). Default: the task's default family.")
    private String family;

    @Option(names = "--model", paramLabel = "NAME|PATH", description = "A model name from 'audioengine models list' (pulled into the model cache "
            + "on first use) or the path of a file or folder the family can load. Default: the family's default model.")
    private String model;

    @Option(names = "--audio", paramLabel = "FILE", arity = "1..*", description = "Input audio: files, folders (their audio files), "
            + "quoted globs ('clips/*.wav'), or - for standard input. WAV is read natively; FLAC, Ogg, Opus, MP3, AIFF, ... through libsndfile.")
    private List<String> audio;

    @Option(names = "--json", description = "Print the result as JSON (one document; streaming modes print one JSON line per event).")
    private boolean json;

    @Option(names = {"-q", "--quiet"}, description = "No progress or summary lines on stderr; errors are still printed.")
    private boolean quiet;

    @Mixin
    private VadTask vad = new VadTask();

    boolean requested() { return task != null; }

    /** Options that belong to a task but were given without --task: a usage error rather than a silent no-op. */
    String strayOption() {
        if (audio != null) return "--audio";
        if (model != null) return "--model";
        if (family != null) return "--family";
        return null;
    }

    void run(AudioEngineCommand top, PrintWriter out, PrintWriter err) throws IOException {
        Task t = UsageError.of(() -> Task.parse(task));
        TaskRun run = new TaskRun(out, err, json, quiet);
        List<Path> inputs = switch (t) {
            case VAD, ASR -> {
                if (audio == null) throw new UsageError("--task " + t.cliName() + " needs --audio FILE");
                yield AudioInputs.expand(audio);
            }
            case TTS -> List.of();
        };
        if (t == Task.VAD) vad.checkBeforeLoading(inputs); // option values and output paths, before any model is pulled

        FamilyRegistry families = top.families();
        ModelLoader loader = new ModelLoader(families, ModelStore.userCache(), run.pullListener());
        ModelLoader.Choice choice;
        try {
            choice = loader.choose(t, family, model);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage(), e);
        }
        try (AudioEngine engine = top.engineBuilder().build()) {
            if (top.globals().backend() == BackendType.BEST_AVAILABLE) run.note("--backend " + engine.selectionNote());
            try (TaskModel m = loader.load(engine, choice)) {
                switch (t) {
                    case VAD -> vad.run(run, engine, (VoiceActivityDetector) m, inputs);
                    case ASR, TTS -> throw new IllegalStateException(choice.family().name() + " loaded a " + t.cliName()
                            + " model, but this CLI has no " + t.cliName() + " front end yet");
                }
            }
        }
    }
}
