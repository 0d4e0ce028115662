package dev.audioengine.spark;

import java.io.Serializable;

/**
 * What an executor opens: the model, the backend and its device, and how calls are run. Two transformers with equal
 * settings share one loaded model in each executor JVM ({@link ExecutorModels}).
 *
 * @param model a variant name or alias ({@code audioengine models list}), a model path readable on every executor, or
 *     null for the task's default model
 * @param backend cpu, cuda, hip, vulkan or best, as {@code --backend} takes it
 * @param device the backend's device index ({@code --device}); negative: the GPU Spark assigned to the task
 *     ({@code TaskContext.resources()}'s "gpu") when there is one, else 0
 * @param threads CPU worker threads of the engine ({@code --threads}); 0: {@code spark.task.cpus} (1 unless set) in a
 *     task, so that concurrent tasks, not one call's ops, share the executor's cores; every processor outside one
 * @param maxBatch speech recognition: recordings decoded together ({@code --max-batch}); 0: the CLI's default (1 on
 *     the CPU, 64 on a GPU)
 * @param modelCache the folder named models are read from and pulled into, the same on every node (a shared path or a
 *     copy on each); null: the executor user's cache ({@code XDG_CACHE_HOME} or {@code ~/.cache/audioengine})
 */
public record EngineSettings(String model, String backend, int device, int threads, int maxBatch, String modelCache)
        implements Serializable {
    /** The task's default model on the CPU, spark.task.cpus threads, the CLI's batching, the user's model cache. */
    public static final EngineSettings DEFAULTS = new EngineSettings(null, "cpu", -1, 0, 0, null);

    /**
     * Checks the numbers; names are checked where they are opened, on the executors.
     *
     * @throws IllegalArgumentException if {@code backend} is null, or {@code threads} or {@code maxBatch} is negative
     */
    public EngineSettings {
        if (backend == null) throw new IllegalArgumentException("backend must be named (cpu, cuda, hip, vulkan, best)");
        if (threads < 0) throw new IllegalArgumentException("threads must be 0 (all) or more, not " + threads);
        if (maxBatch < 0) throw new IllegalArgumentException("maxBatch must be 0 (default) or more, not " + maxBatch);
    }

    /**
     * @param m a variant name, a path, or null for the default
     * @return these settings with that model
     */
    public EngineSettings withModel(String m) {
        return new EngineSettings(m, backend, device, threads, maxBatch, modelCache);
    }

    /**
     * @param b cpu, cuda, hip, vulkan or best
     * @return these settings with that backend
     */
    public EngineSettings withBackend(String b) {
        return new EngineSettings(model, b, device, threads, maxBatch, modelCache);
    }

    /**
     * @param d a device index, or negative for Spark's GPU assignment
     * @return these settings with that device
     */
    public EngineSettings withDevice(int d) {
        return new EngineSettings(model, backend, d, threads, maxBatch, modelCache);
    }

    /**
     * @param t engine threads, 0 for all
     * @return these settings with that many threads
     */
    public EngineSettings withThreads(int t) {
        return new EngineSettings(model, backend, device, t, maxBatch, modelCache);
    }

    /**
     * @param n recordings decoded together, 0 for the CLI's default
     * @return these settings with that batch size
     */
    public EngineSettings withMaxBatch(int n) {
        return new EngineSettings(model, backend, device, threads, n, modelCache);
    }

    /**
     * @param dir the model cache folder on every node, or null for the user's
     * @return these settings with that cache
     */
    public EngineSettings withModelCache(String dir) {
        return new EngineSettings(model, backend, device, threads, maxBatch, dir);
    }
}
