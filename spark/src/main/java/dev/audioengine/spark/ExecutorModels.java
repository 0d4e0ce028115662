package dev.audioengine.spark;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.store.PullListener;
import dev.audioengine.model.task.Batching;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.WarmUp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

/**
 * The engines and models of this JVM (a Spark executor, or the driver in local mode): one per setting, task and
 * device, loaded by the first task that needs it and shared by every later task, since a model costs seconds and
 * hundreds of megabytes to load and every task interface is thread-safe. Closed when the executor stops
 * ({@link AudioEnginePlugin}) or, failing that, when the JVM exits.
 */
public final class ExecutorModels {
    /** The GPU resource name of Spark's scheduling ({@code spark.executor.resource.gpu.amount}). */
    static final String GPU = "gpu";

    private static final Map<Key, Loaded> LOADED = new LinkedHashMap<>();
    private static final AtomicInteger LOADS = new AtomicInteger();
    private static boolean hookAdded;

    private ExecutorModels() {}

    private record Key(EngineSettings settings, Class<? extends TaskModel> type, int device) {}

    /**
     * An engine and the model loaded onto it; the model closes before the engine.
     *
     * @param engine the engine whose backend runs the model
     * @param model the loaded model, implementing the task interface it was asked for
     */
    record Loaded(AudioEngine engine, TaskModel model) {
        /** The backend's registry name, as the CLI's JSON writes it ({@code cpu}, {@code cuda}, ...). */
        String backend() {
            return engine.backend().registryName();
        }

        void close() {
            try {
                model.close();
            } finally {
                engine.close();
            }
        }
    }

    /**
     * The model for {@code settings} and {@code type} on the device this task should use, loaded on first use.
     * Callers hold the lock only while loading, so a slow first load keeps other tasks of this JVM waiting for it
     * rather than loading a second copy.
     */
    static synchronized Loaded get(EngineSettings settings, Class<? extends TaskModel> type) throws IOException {
        TaskContext task = TaskContext.get();
        if (settings.threads() == 0 && task != null) {
            // Spark runs as many tasks at once as the executor has task slots, each given spark.task.cpus cores: each
            // call runs on that many threads and the slots spread the work over the cores, where a pool of every core
            // under every concurrent task would hand kernels' work to workers other tasks keep busy
            // (docs/PERFORMANCE.md,
            // "Spark local mode against one CLI process")
            settings = settings.withThreads(Math.max(1, task.cpus()));
        }
        Key key = new Key(settings, type, device(settings));
        Loaded loaded = LOADED.get(key);
        if (loaded != null) return loaded;
        long t0 = System.nanoTime();
        loaded = load(key);
        System.err.printf(
                java.util.Locale.ROOT,
                "audioengine: loaded %s on %s device %d (%d threads) in %.1f s, once for this executor%n",
                loaded.model().describe(),
                loaded.backend(),
                key.device(),
                loaded.engine().hostThreads(),
                (System.nanoTime() - t0) / 1e9);
        LOADED.put(key, loaded);
        LOADS.incrementAndGet();
        if (!hookAdded) {
            // the backstop for a JVM that ends without the plugin's executor shutdown (a driver in local mode
            // without spark.plugins, a killed executor's orderly exit)
            Runtime.getRuntime().addShutdownHook(new Thread(ExecutorModels::closeAll, "audioengine-close-models"));
            hookAdded = true;
        }
        return loaded;
    }

    /**
     * Loads the model that tasks of {@code settings} and {@code type} will ask for, and runs it once on a made-up input
     * ({@link WarmUp}), on a daemon thread of its own: a local-mode job (driver and executor in one JVM) starts it
     * before Spark, so that loading the model and compiling its kernels overlap Spark's own start instead of following
     * it. The key is the tasks' own (threads left to Spark resolved to {@code taskCpus}, the device from the settings
     * or 0), so the tasks find the model loaded, or wait for the load under this class's lock. A failure is printed and
     * otherwise left to the first task, which loads again and fails the job saying why.
     *
     * @param settings the job's engine settings
     * @param type the task interface its transformer asks for
     * @param taskCpus spark.task.cpus (what a task's threads resolve to)
     * @return the started thread
     */
    static Thread preloadInBackground(EngineSettings settings, Class<? extends TaskModel> type, int taskCpus) {
        EngineSettings s = settings.threads() == 0 ? settings.withThreads(Math.max(1, taskCpus)) : settings;
        return Thread.ofPlatform().daemon().name("audioengine-preload").start(() -> {
            try {
                long t0 = System.nanoTime();
                WarmUp.run(get(s, type).model());
                System.err.printf(
                        java.util.Locale.ROOT,
                        "audioengine: loaded and warmed while Spark started, %.1f s%n",
                        (System.nanoTime() - t0) / 1e9);
            } catch (IOException | RuntimeException e) {
                System.err.println("audioengine: preloading " + s.model() + " failed (" + e.getMessage()
                        + "); the first task loads it again");
            }
        });
    }

    /**
     * How many models this JVM has loaded since it started: one per setting and device however many rows and tasks
     * ran, which the tests check.
     *
     * @return the count of loads (closing does not lower it)
     */
    public static int loads() {
        return LOADS.get();
    }

    /**
     * How many models are loaded now.
     *
     * @return the count of open models
     */
    public static synchronized int open() {
        return LOADED.size();
    }

    /**
     * Closes every model and engine of this JVM, the last loaded first. A later task loads again.
     * Called by {@link AudioEnginePlugin} when the executor stops, and at JVM exit.
     */
    public static synchronized void closeAll() {
        List<Loaded> all = new ArrayList<>(LOADED.values());
        LOADED.clear();
        RuntimeException first = null;
        for (int i = all.size() - 1; i >= 0; i--) {
            try {
                all.get(i).close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
                else first.addSuppressed(e);
            }
        }
        if (first != null) throw first;
    }

    /**
     * The device index: the settings' when given, else the GPU Spark assigned to this task (its first address, an
     * ordinal as the discovery script reports it), else 0.
     */
    static int device(EngineSettings settings) {
        TaskContext task = TaskContext.get();
        return device(settings, task == null ? Map.of() : task.resourcesJMap());
    }

    /** {@link #device(EngineSettings)} given the task's resources ({@code TaskContext.resourcesJMap()}). */
    static int device(EngineSettings settings, Map<String, ResourceInformation> resources) {
        if (settings.device() >= 0) return settings.device();
        ResourceInformation gpu = resources.get(GPU);
        if (gpu == null || gpu.addresses().length == 0) return 0;
        String address = gpu.addresses()[0];
        try {
            return Integer.parseInt(address.strip());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Spark assigned GPU address '" + address
                    + "', which is not a device ordinal; make the discovery script report ordinals (0, 1, ...) or set"
                    + " the device explicitly (--device)");
        }
    }

    private static Loaded load(Key key) throws IOException {
        EngineSettings s = key.settings();
        // the engine's jars sit on Spark's class path, possibly in a child loader of the one that loaded Spark (jars
        // added with --jars): look services up in the loader that loaded this class, not whatever the thread has
        ClassLoader loader = ExecutorModels.class.getClassLoader();
        Map<String, BackendProvider> backends = new LinkedHashMap<>();
        for (BackendProvider p : ServiceLoader.load(BackendProvider.class, loader))
            backends.putIfAbsent(p.registryName(), p);
        List<ModelFamily> families = ServiceLoader.load(ModelFamily.class, loader).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
        AudioEngine engine = AudioEngine.builder()
                .registry(BackendRegistry.of(new ArrayList<>(backends.values())))
                .backend(s.backend())
                .device(key.device())
                .threads(s.threads())
                // the task slots are the parallelism: each task's calls on one thread (spark.task.cpus), on a model
                // the tasks share; on the CPU their runs overlap, one per session, where taking turns on the engine
                // left one core of two idle (docs/PERFORMANCE.md, "Spark local mode against one CLI process")
                .concurrentRuns(true)
                .build();
        try {
            ModelStore store =
                    s.modelCache() == null ? ModelStore.userCache() : new ModelStore(Path.of(s.modelCache()));
            PullListener log = text -> System.err.println("audioengine: " + text);
            TaskModel model =
                    new ModelLoader(FamilyRegistry.of(families), store, log).load(engine, s.model(), key.type());
            if (model instanceof SpeechRecognizer asr) {
                // the CLI's default: a GPU decodes many recordings in one step, a CPU gains nothing from it
                int n = s.maxBatch() > 0 ? s.maxBatch() : engine.device().kind() == DeviceKind.CPU ? 1 : 64;
                if (n > 1) asr.batching(new Batching(n, 0));
            }
            return new Loaded(engine, model);
        } catch (IOException | RuntimeException | Error e) {
            engine.close();
            throw e;
        }
    }
}
