package dev.audioengine.server.serving;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelLoader;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * One model the server serves: a named variant or an operator's file ({@link ServedSource}), loaded on first use (or at start with --preload) and then kept, with
 * one {@link Replica} per device, each with its own {@link ModelPool}. A load that fails is not remembered as loaded: the next request tries again (a pull can
 * fail for a moment), and {@link #state()} says what went wrong meanwhile.
 */
public final class ServedModel implements AutoCloseable {
    private final ServedSource source;
    private final ModelLoader loader;
    private final Batching batching;
    private final List<Replica> replicas;
    /** Held while a request's replica is chosen; not this (a load holds that for seconds). */
    private final Object choosing = new Object();

    private boolean closed;

    /**
     * The model on one device: that device's engine, its own worker pool, and the model loaded there (on first use).
     * A server on several devices (--device 0,1) has one per device and sends each request to the least loaded; a
     * speech synthesis model with --tts-replicas N has N per device, each on an engine of its own.
     */
    public final class Replica {
        private final AudioEngine engine;
        private final ModelPool pool;
        private final int index;
        private final LongAdder requests = new LongAdder();
        private volatile TaskModel loaded;
        private volatile String failure;

        private Replica(AudioEngine engine, ModelPool pool, int index) {
            this.engine = engine;
            this.pool = pool;
            this.index = index;
        }

        public ModelPool pool() {
            return pool;
        }

        /**
         * Its position among the model's engines: --device's order (0 for a server on one device); for a speech
         * synthesis model with --tts-replicas N, the devices' first engines come first, then their second, and so on.
         */
        public int index() {
            return index;
        }

        /** The device's name, as its backend reports it. */
        public String device() {
            return engine.device().name();
        }

        /** Requests sent to this replica so far. */
        public long requests() {
            return requests.sum();
        }

        /** The model as {@code type}, loading it first if this is the first use (pulling it into the cache if needed). */
        public <T extends TaskModel> T get(Class<T> type) throws IOException {
            TaskModel m = loaded;
            if (m == null) m = load(this);
            return type.cast(m);
        }

        BatchStats batchStats() {
            return loaded instanceof SpeechRecognizer asr ? asr.batchStats() : BatchStats.NONE;
        }
    }

    ServedModel(
            ServedSource source,
            ModelLoader loader,
            List<AudioEngine> engines,
            java.util.function.Supplier<ModelPool> pools,
            Batching batching) {
        this.source = source;
        this.loader = loader;
        this.batching = batching;
        List<Replica> r = new ArrayList<>();
        for (AudioEngine engine : engines) r.add(new Replica(engine, pools.get(), r.size()));
        this.replicas = List.copyOf(r);
    }

    /** The canonical variant name, or the name given to a path: the id clients send and /v1/models lists. */
    public String id() {
        return source.id();
    }

    public ModelFamily family() {
        return source.family();
    }

    ServedSource source() {
        return source;
    }

    public Task task() {
        return source.task();
    }

    /** One per device, in --device's order. */
    public List<Replica> replicas() {
        return replicas;
    }

    /**
     * The replica a new request goes to: the one with the fewest requests running and waiting, and of equals the one
     * sent the fewest so far; counted as sent. A request is in its pool's counts only once it has reached the pool,
     * so a burst of requests chosen before any reached one sees every replica idle: the second rule, with the choice
     * and its count made as one step, deals such a burst out in turn instead of sending all of it to the first.
     */
    public Replica replica() {
        synchronized (choosing) {
            return choose();
        }
    }

    private Replica choose() {
        Replica best = replicas.getFirst();
        int bestLoad = best.pool.running() + best.pool.queued();
        for (Replica r : replicas) {
            int load = r.pool.running() + r.pool.queued();
            if (load < bestLoad || (load == bestLoad && r.requests() < best.requests())) {
                best = r;
                bestLoad = load;
            }
        }
        best.requests.increment();
        return best;
    }

    /** Requests waiting for a worker, over every device. */
    public int queued() {
        return replicas.stream().mapToInt(r -> r.pool.queued()).sum();
    }

    /** Requests being worked on, over every device. */
    public int running() {
        return replicas.stream().mapToInt(r -> r.pool.running()).sum();
    }

    /** What the model's batched decoding has done, summed over devices ({@link BatchStats#NONE} when it does not batch). */
    public BatchStats batchStats() {
        BatchStats sum = BatchStats.NONE;
        for (Replica r : replicas) sum = sum.plus(r.batchStats());
        return sum;
    }

    /** Loaded on every device. */
    public boolean isLoaded() {
        return replicas.stream().allMatch(r -> r.loaded != null);
    }

    /** "loaded", "not loaded" or "failed: why" (the first device's failure). */
    String state() {
        if (isLoaded()) return "loaded";
        for (Replica r : replicas) if (r.loaded == null && r.failure != null) return "failed: " + r.failure;
        return "not loaded";
    }

    /** Whether a load was tried and failed on some device, and none has succeeded there since. */
    boolean failed() {
        return replicas.stream().anyMatch(r -> r.loaded == null && r.failure != null);
    }

    /** The model on the first device as {@code type}, loading it first if needed (voices, lists, preload). */
    public <T extends TaskModel> T get(Class<T> type) throws IOException {
        return replicas.getFirst().get(type);
    }

    private synchronized TaskModel load(Replica r) throws IOException {
        if (closed)
            throw ApiError.unavailable("shutting_down", "the server is shutting down", ModelPool.RETRY_AFTER_SECONDS);
        if (r.loaded != null) return r.loaded;
        try {
            ModelLoader.Choice choice =
                    loader.choose(source.task(), source.family().name(), source.nameOrPath());
            TaskModel m = loader.load(r.engine, choice);
            try {
                if (m instanceof SpeechSynthesizer tts) checkFrontEnd(tts);
                if (m instanceof SpeechRecognizer asr) asr.batching(batching);
            } catch (RuntimeException e) {
                m.close();
                throw e;
            }
            r.failure = null;
            r.loaded = m;
            return m;
        } catch (IOException | RuntimeException e) {
            r.failure = String.valueOf(e.getMessage());
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
        for (Replica r : replicas) {
            r.pool.close();
            TaskModel m = r.loaded;
            r.loaded = null;
            if (m != null) m.close();
        }
    }
}
