package dev.audioengine.cli.task;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.cli.CliContext;
import dev.audioengine.cli.ModelKeeper;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.task.KeywordSpotter;
import dev.audioengine.model.task.NoteTranscriber;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code --task} form of the command (audio.cpp's spelling): {@code audioengine --task vad --audio in.wav ...}.
 * The family comes from the registry (the task's default family without {@code --family}), the model from
 * {@code --model NAME|PATH}; the task's own options live in its class. No family is named here: a family jar on the
 * module path serves its tasks without a change to this file.
 * <p>
 * Each task's options are a group of their own (a section of the help); an option of another task is a usage error
 * rather than silently ignored.
 */
public final class TaskOptions {
    @Option(
            names = "--task",
            paramLabel = "TASK",
            order = 1,
            description =
                    "Run a model task: vad (voice activity detection), asr (speech recognition), tts (speech synthesis), "
                            + "kws (keyword spotting: wake words), notes (audio to MIDI notes); asr, tts, kws and notes need a family that serves them (see "
                            + "'audioengine models list').")
    private String task;

    @Option(
            names = "--family",
            paramLabel = "NAME",
            description = "Model family (see 'audioengine models list'). Default: the task's default family.")
    private String family;

    @Option(
            names = "--model",
            paramLabel = "NAME|PATH",
            description =
                    "A model name from 'audioengine models list' (pulled into the model cache "
                            + "on first use) or the path of a file or folder the family can load. Default: the family's default model.")
    private String model;

    @Option(
            names = "--audio",
            paramLabel = "FILE",
            arity = "1..*",
            description =
                    "Input audio: files, folders (their audio files), "
                            + "quoted globs ('clips/*.wav'), or - for standard input. WAV is read natively; FLAC, Ogg, Opus, MP3, AIFF, ... through libsndfile; WebM, MP4/M4A, MKV, AAC, AMR, WMA and the sound of videos through FFmpeg.")
    private List<String> audio;

    @Option(
            names = "--json",
            description =
                    "Print the result as JSON: one document per input, a JSON array of them for several "
                            + "inputs; --mode streaming prints one JSON line per event instead (with \"audio\" when there are several inputs).")
    private boolean json;

    @Option(
            names = {"-q", "--quiet"},
            description = "No progress or summary lines on stderr; errors are still printed.")
    private boolean quiet;

    @ArgGroup(validate = false, exclusive = false, order = 5, heading = "%nOptions of every task:%n")
    private ModeOption mode = new ModeOption();

    @ArgGroup(validate = false, exclusive = false, order = 10, heading = "%nOptions of --task vad and --task asr:%n")
    private AudioTaskOptions audioTask = new AudioTaskOptions();

    @ArgGroup(validate = false, exclusive = false, order = 15, heading = "%nOptions of --task vad and --task kws:%n")
    private ThresholdOption threshold = new ThresholdOption();

    @ArgGroup(validate = false, exclusive = false, order = 16, heading = "%nOptions of --task tts and --task notes:%n")
    private OutOption output = new OutOption();

    @ArgGroup(
            validate = false,
            exclusive = false,
            order = 20,
            heading = "%nOptions of --task vad (prints 'start - end' in seconds per speech segment):%n")
    private VadTask vad = new VadTask();

    @ArgGroup(
            validate = false,
            exclusive = false,
            order = 30,
            heading = "%nOptions of --task asr (prints the transcript, one line per input;%n"
                    + "'FILE: text' with several inputs; with --mode streaming, '[start \u2192 end] text'%n"
                    + "per segment as it settles):%n")
    private AsrTask asr = new AsrTask();

    // after asr's own options, where --vad-threshold stood before kws took it too
    @ArgGroup(validate = false, exclusive = false, order = 35, heading = "%nOptions of --task asr and --task kws:%n")
    private VadThresholdOption vadThreshold = new VadThresholdOption();

    @ArgGroup(
            validate = false,
            exclusive = false,
            order = 40,
            heading = "%nOptions of --task tts (writes a WAV; stderr: a summary line; exit status 2 for%n"
                    + "a bad option or an unknown voice, 1 for text the model cannot say):%n")
    private TtsTask tts = new TtsTask();

    @ArgGroup(
            validate = false,
            exclusive = false,
            order = 50,
            heading = "%nOptions of --task kws (prints 'TIME KEYWORD SCORE' per detection as heard,%n"
                    + "TIME the end of its 80 ms frame in seconds; 'FILE: ...' with several inputs;%n"
                    + "exit status 0 whether or not a keyword was heard, 1 for a model or input%n"
                    + "that cannot be used, 2 for a bad option or an unknown keyword):%n")
    private KwsTask kws = new KwsTask();

    @ArgGroup(
            validate = false,
            exclusive = false,
            order = 60,
            heading = "%nOptions of --task notes (prints 'START END PITCH VELOCITY' per note, seconds and MIDI%n"
                    + "numbers, sorted by start; exit status 1 for a model or input that cannot be used,%n"
                    + "2 for a bad option):%n")
    private NotesTask notes = new NotesTask();

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    public boolean requested() {
        return task != null;
    }

    /** Options that belong to a task but were given without --task: a usage error rather than a silent no-op. */
    public String strayOption() {
        Set<String> taskOnly = Set.of("--audio", "--model", "--family");
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            if (o.group() != null || taskOnly.contains(o.longestName())) return o.longestName();
        }
        return null;
    }

    /** The tasks each group of options serves. */
    private static Set<Task> tasksOf(ArgGroupSpec group) {
        Class<?> type = group.typeInfo().getType();
        if (type == ModeOption.class) return EnumSet.allOf(Task.class);
        if (type == AudioTaskOptions.class) return EnumSet.of(Task.VAD, Task.ASR);
        if (type == ThresholdOption.class) return EnumSet.of(Task.VAD, Task.KWS);
        if (type == VadThresholdOption.class) return EnumSet.of(Task.ASR, Task.KWS);
        if (type == OutOption.class) return EnumSet.of(Task.TTS, Task.NOTES);
        if (type == KwsTask.class) return EnumSet.of(Task.KWS);
        if (type == NotesTask.class) return EnumSet.of(Task.NOTES);
        if (type == VadTask.class) return EnumSet.of(Task.VAD);
        if (type == AsrTask.class) return EnumSet.of(Task.ASR);
        if (type == TtsTask.class) return EnumSet.of(Task.TTS);
        throw new IllegalStateException("option group " + type.getName() + " serves no task");
    }

    /** An option of another task's group (e.g. VAD's --threshold with --task asr) is refused, naming what the task takes. */
    private void rejectOptionsOfOtherTasks(Task t) {
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            if (o.group() == null || tasksOf(o.group()).contains(t)) continue;
            String owners = tasksOf(o.group()).stream()
                    .map(x -> "--task " + x.cliName())
                    .collect(Collectors.joining(" and "));
            String takes = spec.argGroups().stream()
                    .filter(g -> tasksOf(g).contains(t))
                    .flatMap(g -> g.options().stream())
                    .map(OptionSpec::longestName)
                    .collect(Collectors.joining(", "));
            throw new UsageError(o.longestName() + " is an option of " + owners + ", not of --task " + t.cliName()
                    + "; "
                    + (takes.isEmpty() ? "--task " + t.cliName() + " takes no task options" : "its options: " + takes));
        }
    }

    public void run(CliContext top, PrintWriter out, PrintWriter err) throws IOException {
        Task t = UsageError.of(() -> Task.parse(task));
        rejectOptionsOfOtherTasks(t);
        TaskRun run = new TaskRun(out, err, json, quiet);
        audioTask.mode = mode;
        vad.threshold = threshold;
        kws.threshold = threshold;
        asr.vadThreshold = vadThreshold;
        kws.vadThreshold = vadThreshold;
        tts.out = output.out;
        notes.midiOut = output.out;
        List<Path> inputs = switch (t) {
            case VAD, ASR, KWS, NOTES -> {
                if (audio == null) throw new UsageError("--task " + t.cliName() + " needs --audio FILE");
                audioTask.audioStream(); // a bad number before any input is looked at
                yield AudioInputs.expand(audio);
            }
            case TTS -> {
                if (audio != null)
                    throw new UsageError(
                            "--task tts says text (--text or --text-file); --audio is for vad, asr, kws and notes");
                yield List.of();
            }
        };
        switch (t) { // option values and output paths, before any model is pulled
            case VAD -> vad.checkBeforeLoading(audioTask, inputs);
            case ASR -> asr.checkBeforeLoading(audioTask, inputs);
            case TTS -> tts.checkBeforeLoading(mode.streaming(), json, top::stdin);
            case KWS -> kws.checkBeforeLoading(mode.streaming(), inputs);
            case NOTES -> {
                if (mode.streaming())
                    throw new UsageError("--task notes reads whole files; --mode streaming is not supported");
                notes.checkBeforeLoading(inputs);
            }
        }

        FamilyRegistry families = top.families();
        ModelLoader loader = new ModelLoader(families, ModelStore.userCache(), run.pullListener());
        ModelLoader.Choice choice = ModelChoice.choose(loader, t, family, model);
        if (top.globals().devices().size() > 1 && t == Task.ASR) {
            asrOnDevices(top, run, loader, choice, inputs);
            return;
        }
        // a resident process keeps a model loaded by name for the next job that asks for it on the same engine
        String key = choice.location().namedVariant().isPresent()
                ? t + " " + choice.family().getClass().getName() + " " + choice.location() + " "
                        + top.globals().engineKey()
                : null;
        try (ModelKeeper.Lease lease =
                top.models().lease(key, () -> top.engineBuilder().build(), e -> loader.load(e, choice))) {
            AudioEngine engine = lease.engine();
            TaskModel m = lease.model();
            if (top.globals().backend() == BackendType.BEST_AVAILABLE) run.note("--backend " + engine.selectionNote());
            switch (t) {
                case VAD -> vad.run(run, engine, (VoiceActivityDetector) m, inputs);
                case ASR -> asr.run(run, engine, (SpeechRecognizer) m, inputs);
                case TTS -> tts.run(run, engine, (SpeechSynthesizer) m, top::stdout);
                case KWS -> {
                    if (!kws.needsVad()) kws.run(run, engine, (KeywordSpotter) m, null, inputs);
                    else // --vad-threshold: Silero VAD (the default vad model) beside the keyword model
                    try (TaskModel vadModel = loader.load(engine, ModelChoice.choose(loader, Task.VAD, null, null))) {
                            kws.run(run, engine, (KeywordSpotter) m, (VoiceActivityDetector) vadModel, inputs);
                        }
                }
                case NOTES -> notes.run(run, engine, (NoteTranscriber) m, inputs);
            }
        }
    }

    /**
     * --task asr on several devices (--device 0,1,...): the model loaded on each, pooled, so that the inputs spread
     * over the devices (each input on the least busy) and, with --max-batch, batch on each.
     */
    private void asrOnDevices(
            CliContext top, TaskRun run, ModelLoader loader, ModelLoader.Choice choice, List<Path> inputs)
            throws IOException {
        List<AudioEngine> engines = new java.util.ArrayList<>();
        List<dev.audioengine.model.task.SpeechRecognizer> copies = new java.util.ArrayList<>();
        try {
            for (int device : top.globals().devices()) {
                AudioEngine engine = dev.audioengine.cli.EngineFactory.builder(top.globals(), top.registry(), device)
                        .build();
                engines.add(engine);
                copies.add((dev.audioengine.model.task.SpeechRecognizer) loader.load(engine, choice));
            }
            run.note("transcribing on " + engines.size() + " devices: "
                    + String.join(
                            ", ", engines.stream().map(e -> e.device().name()).toList()));
            try (var pool = dev.audioengine.model.task.RecognizerPool.of(copies)) {
                copies.clear(); // the pool owns them now
                asr.run(run, engines.getFirst(), pool, inputs);
            }
        } finally {
            copies.forEach(dev.audioengine.model.TaskModel::close);
            engines.forEach(AudioEngine::close);
        }
    }
}
