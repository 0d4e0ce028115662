package dev.audioengine.server.serving;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.task.BatchStats;
import dev.audioengine.model.task.Batching;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SynthesisOptions;
import dev.audioengine.server.http.ApiError;
import java.io.IOException;
import java.io.StringReader;

/**
 * One model the server serves: a named variant, loaded on first use (or at start with --preload) and then kept, with
 * its own {@link ModelPool}. A load that fails is not remembered as loaded: the next request tries again (a pull can
 * fail for a moment), and {@link #state()} says what went wrong meanwhile.
 */
public final class ServedModel implements AutoCloseable {
    private final ModelFamily family;
    private final ModelVariant variant;
    private final ModelLoader loader;
    private final AudioEngine engine;
    private final ModelPool pool;
    private final Batching batching;
    private volatile TaskModel loaded;
    private volatile String failure;
    private boolean closed;

    ServedModel(
            ModelFamily family,
            ModelVariant variant,
            ModelLoader loader,
            AudioEngine engine,
            ModelPool pool,
            Batching batching) {
        this.batching = batching;
        this.family = family;
        this.variant = variant;
        this.loader = loader;
        this.engine = engine;
        this.pool = pool;
    }

    /** The canonical variant name: the id clients send and /v1/models lists. */
    public String id() {
        return variant.name();
    }

    public ModelFamily family() {
        return family;
    }

    ModelVariant variant() {
        return variant;
    }

    public Task task() {
        return variant.task();
    }

    public ModelPool pool() {
        return pool;
    }

    /** What the model's batched decoding has done ({@link BatchStats#NONE} when it is not loaded or does not batch). */
    public BatchStats batchStats() {
        return loaded instanceof SpeechRecognizer asr ? asr.batchStats() : BatchStats.NONE;
    }

    public boolean isLoaded() {
        return loaded != null;
    }

    /** "loaded", "not loaded" or "failed: why". */
    String state() {
        if (loaded != null) return "loaded";
        String f = failure;
        return f == null ? "not loaded" : "failed: " + f;
    }

    /** Whether a load was tried and failed, and none has succeeded since. */
    boolean failed() {
        return loaded == null && failure != null;
    }

    /** The model as {@code type}, loading it first if this is the first use (pulling it into the cache if needed). */
    public <T extends TaskModel> T get(Class<T> type) throws IOException {
        TaskModel m = loaded;
        if (m == null) m = load();
        return type.cast(m);
    }

    private synchronized TaskModel load() throws IOException {
        if (closed)
            throw ApiError.unavailable("shutting_down", "the server is shutting down", ModelPool.RETRY_AFTER_SECONDS);
        if (loaded != null) return loaded;
        try {
            ModelLoader.Choice choice = loader.choose(variant.task(), family.name(), variant.name());
            TaskModel m = loader.load(engine, choice);
            try {
                if (m instanceof SpeechSynthesizer tts) checkFrontEnd(tts);
                if (m instanceof SpeechRecognizer asr) asr.batching(batching);
            } catch (RuntimeException e) {
                m.close();
                throw e;
            }
            failure = null;
            loaded = m;
            return m;
        } catch (IOException | RuntimeException e) {
            failure = String.valueOf(e.getMessage());
            throw e;
        }
    }

    /**
     * A synthesizer's text front end (Kokoro's espeak-ng) is found only when text is first read, so a server would say
     * ready and then fail every speech request; reading a word through it now (the text is split into pieces, no
     * audio is made) makes a missing front end a load failure, which /ready and --preload report.
     */
    private static void checkFrontEnd(SpeechSynthesizer tts) {
        if (!tts.stream(new StringReader("Ready."), SynthesisOptions.DEFAULTS).hasNext()) {
            throw new IllegalStateException(
                    tts.describe() + " finds nothing to say in the word 'Ready.': its text front end does not work");
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        pool.close();
        TaskModel m = loaded;
        loaded = null;
        if (m != null) m.close();
    }
}
