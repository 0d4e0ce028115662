package dev.audioengine.server.serving;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.server.ServerConfig;
import dev.audioengine.server.http.ApiError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The models named by --models, resolved against the installed families when the server starts (an unknown name is a
 * usage error then, not a 404 later). Requests find them by any name or alias of the variant; nothing a request sends
 * is ever taken as a path.
 */
public final class ServedModels implements AutoCloseable {
    private final Map<String, ServedModel> byId = new LinkedHashMap<>();

    public ServedModels(ServerConfig config, ModelLoader loader, AudioEngine engine) {
        this(config, loader, List.of(engine), List.of(engine));
    }

    /**
     * The models, each with a replica (a worker pool and, once loaded, the model) on each engine: one per device, and
     * for speech synthesis models one per engine of {@code ttsEngines} (serve --tts-replicas).
     */
    public ServedModels(
            ServerConfig config, ModelLoader loader, List<AudioEngine> engines, List<AudioEngine> ttsEngines) {
        for (ServedSource source : resolve(loader.registry(), config.models())) {
            String id = source.id();
            byId.put(
                    id,
                    new ServedModel(
                            source,
                            loader,
                            source.task() == Task.TTS ? ttsEngines : engines,
                            () -> new ModelPool(id, config.workers(), config.queue(), config.queueTimeout()),
                            config.batching()));
        }
    }

    /** The tasks this server has endpoints for, in the order a path is offered to their families. */
    static final List<Task> SERVED_TASKS = List.of(Task.ASR, Task.TTS, Task.VAD, Task.KWS, Task.NOTES);

    /**
     * What {@code names} stand for, in order: variant names (or aliases) of the cache, and {@code NAME=PATH} entries
     * serving an operator's file or folder under NAME, loaded by the first installed family that accepts it. An
     * unknown name, a path no family serving one of this server's tasks accepts, a task this server has no endpoint
     * for, or one model named twice (perhaps by an alias) is an IllegalArgumentException saying so, before anything
     * is loaded.
     */
    public static List<ServedSource> resolve(FamilyRegistry registry, List<String> names) {
        Map<String, ServedSource> out = new LinkedHashMap<>();
        for (String entry : names) {
            String name = entry.strip();
            ServedSource source = name.contains("=") ? ofPath(registry, name) : ofVariant(registry, name);
            if (!SERVED_TASKS.contains(source.task())) {
                throw new IllegalArgumentException("--models: " + name + " is a "
                        + source.task().cliName() + " model; this server serves asr, tts, vad, kws and notes models");
            }
            boolean twice = out.values().stream().anyMatch(o -> source.answersTo(o.id()) || o.answersTo(source.id()));
            if (twice) throw new IllegalArgumentException("--models names " + source.id() + " twice");
            out.put(source.id(), source);
        }
        return List.copyOf(out.values());
    }

    private static ServedSource ofVariant(FamilyRegistry registry, String name) {
        FamilyRegistry.Named named = registry.variant(name)
                .orElseThrow(() -> new IllegalArgumentException("--models: no installed model is named '" + name
                        + "'; models: " + String.join(", ", registry.variantNames())
                        + " (or NAME=PATH to serve a file or folder of yours under NAME)"));
        return ServedSource.of(named.family(), named.variant());
    }

    private static ServedSource ofPath(FamilyRegistry registry, String entry) {
        int eq = entry.indexOf('=');
        String id = entry.substring(0, eq).strip();
        Path path = Path.of(entry.substring(eq + 1).strip());
        if (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]*"))
            throw new IllegalArgumentException("--models " + entry + ": the name before '=' is what clients send as"
                    + " model; use letters, digits, '.', '_' and '-'");
        if (registry.variant(id).isPresent())
            throw new IllegalArgumentException("--models " + entry + ": " + id
                    + " is the name of an installed model; give your file another name");
        if (!Files.exists(path))
            throw new IllegalArgumentException("--models " + entry + ": no such file or folder " + path);
        List<String> refusals = new ArrayList<>();
        List<ModelFamily> tried = new ArrayList<>();
        for (Task task : SERVED_TASKS) {
            for (ModelFamily f : registry.serving(task)) {
                if (tried.contains(f)) continue;
                tried.add(f);
                try {
                    f.validate(path);
                    return new ServedSource(id, f, task, null, path.toAbsolutePath());
                } catch (IOException e) {
                    refusals.add(f.name() + ": " + e.getMessage());
                }
            }
        }
        throw new IllegalArgumentException("--models " + entry + ": no installed family can serve " + path + " ("
                + String.join("; ", refusals) + ")");
    }

    public List<ServedModel> all() {
        return List.copyOf(byId.values());
    }

    /** The served model {@code name} answers to (its name or an alias, any case). */
    public Optional<ServedModel> find(String name) {
        return byId.values().stream()
                .filter(m -> m.source().answersTo(name.trim()))
                .findFirst();
    }

    /** The served model {@code name} answers to; 404 in OpenAI's terms when there is none. */
    public ServedModel require(String name) {
        return find(name)
                .orElseThrow(() ->
                        ApiError.modelNotFound("the model '" + name + "' does not exist on this server; it serves "
                                + String.join(", ", byId.keySet()) + " (GET /v1/models)"));
    }

    /**
     * OpenAI's speech model names, which a client written for OpenAI sends: each stands for this server's first tts
     * model (the models' own names are always understood too).
     */
    static final java.util.Set<String> OPENAI_SPEECH_MODELS = java.util.Set.of("tts-1", "tts-1-hd", "gpt-4o-mini-tts");

    /**
     * OpenAI's transcription model names, which a client written for OpenAI sends: each stands for this server's first
     * asr model, as the speech names do for the tts model.
     */
    public static final java.util.Set<String> OPENAI_TRANSCRIPTION_MODELS =
            java.util.Set.of("whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe");

    /**
     * The first served model of {@code task} when {@code name} is none of the served models' names but one of OpenAI's
     * {@code names} for that task.
     */
    public Optional<ServedModel> openAiName(String name, java.util.Set<String> names, Task task) {
        if (find(name).isPresent() || !names.contains(name.strip().toLowerCase(java.util.Locale.ROOT)))
            return Optional.empty();
        return first(task);
    }

    /** The served model {@code name} answers to, OpenAI's speech model names standing for the first tts model; else 404. */
    public ServedModel requireSpeech(String name) {
        Optional<ServedModel> tts = openAiName(name, OPENAI_SPEECH_MODELS, Task.TTS);
        if (tts.isPresent()) return tts.get();
        ServedModel m = require(name);
        if (m.task() != Task.TTS) {
            throw ApiError.invalid(
                    "model",
                    m.id() + " is a " + m.task().cliName() + " model; speech needs a speech synthesis model: "
                            + String.join(
                                    ", ",
                                    byId.values().stream()
                                            .filter(x -> x.task() == Task.TTS)
                                            .map(ServedModel::id)
                                            .toList()));
        }
        return m;
    }

    /** The first served model of {@code task}: what a request that names no model gets, where the endpoint allows that. */
    public Optional<ServedModel> first(Task task) {
        return byId.values().stream().filter(m -> m.task() == task).findFirst();
    }

    /**
     * Loads every model now (--preload) and runs each once on a short made-up input, so the first request meets
     * compiled graphs and kernels the JIT has already compiled instead of paying for them; the first failure stops
     * the server from starting.
     */
    public void preload() throws IOException {
        for (ServedModel m : byId.values())
            for (ServedModel.Replica r : m.replicas())
                dev.audioengine.model.task.WarmUp.run(r.get(dev.audioengine.model.TaskModel.class));
    }

    /** No new work on any model; waits for the work in flight, at most {@code timeout} in all. */
    public boolean drain(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean all = true;
        for (ServedModel m : byId.values())
            for (ServedModel.Replica r : m.replicas())
                all &= r.pool().drain(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        return all;
    }

    @Override
    public void close() {
        List<RuntimeException> errors = new ArrayList<>();
        for (ServedModel m : byId.values()) {
            try {
                m.close();
            } catch (RuntimeException e) {
                errors.add(e);
            }
        }
        if (!errors.isEmpty()) {
            RuntimeException first = errors.getFirst();
            errors.subList(1, errors.size()).forEach(first::addSuppressed);
            throw first;
        }
    }
}
