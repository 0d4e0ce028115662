package dev.audioengine.api;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.capability.CapabilityOverrides;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.Compiler;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.exec.PersistentTensor;
import dev.audioengine.api.exec.WeightCache;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.UnknownOptionException;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The embedding entry point: one opened backend device (plus the CPU backend for fallback
 * nodes when allowed), the user's capability switches, and the weights uploaded so far.
 * <pre>{@code
 * try (AudioEngine engine = AudioEngine.builder().backend("cpu").threads(2).build()) {
 *     ...
 * }
 * }</pre>
 */
public final class AudioEngine implements AutoCloseable {
    private final Backend backend;
    private final Backend cpuFallback; // null when the primary is the CPU or fallback is off
    private final CapabilityOverrides overrides;
    private final FallbackPolicy fallback;
    private final WeightCache weights = new WeightCache();
    private final String selectionNote;
    private final int hostThreads;
    private final Builder settings; // what opened this engine, its backend and device resolved: sibling() reopens it
    private final boolean concurrentRuns;
    private boolean closed;

    private AudioEngine(
            Backend backend,
            Backend cpuFallback,
            CapabilityOverrides overrides,
            FallbackPolicy fallback,
            String note,
            int threads,
            Builder settings) {
        this.settings = settings;
        this.hostThreads = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        this.backend = backend;
        this.cpuFallback = cpuFallback;
        this.overrides = overrides;
        this.fallback = fallback;
        this.selectionNote = note;
        // a GPU's graphs may hand nodes to the CPU fallback mid-run: one lock for both, as before
        this.concurrentRuns = settings.concurrentRuns && cpuFallback == null && backend.supportsConcurrentRuns();
    }

    /**
     * Starts configuring an engine; every setting has a default, so {@code AudioEngine.builder().build()} opens the
     * CPU backend with all processors.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The primary backend.
     *
     * @return the opened backend, owned by this engine: do not close it
     */
    public Backend backend() {
        return backend;
    }

    /**
     * Threads a model's own host-side arithmetic may use (work the graph API does not express, such as Kokoro's
     * harmonic source): the {@link Builder#threads} setting, else all available processors; so one thread asked
     * for is one thread used, on any backend.
     *
     * @return a thread count, {@code >= 1}
     */
    public int hostThreads() {
        return hostThreads;
    }

    /**
     * What a model holds while it runs the graphs of {@code own}, state no other caller shares (a decoding session, a
     * detector's runner): the engine itself, so that runs on this engine take turns as the backend SPI asks, unless the
     * engine was opened with {@link Builder#concurrentRuns} on a backend that {@linkplain Backend#supportsConcurrentRuns runs
     * graphs concurrently}; then {@code own}, and callers on other state run at the same time. Allocating and
     * compiling still hold the engine.
     *
     * @param own the caller's own state, never shared between threads at once
     * @return the monitor to synchronize the runs on
     */
    public Object runLock(Object own) {
        return concurrentRuns ? own : this;
    }

    /**
     * Whether {@link #runLock} lets runs of different callers overlap on this engine.
     *
     * @return true when opened with {@link Builder#concurrentRuns} on a backend that runs graphs concurrently
     */
    public boolean concurrentRuns() {
        return concurrentRuns;
    }

    /**
     * The selected device's free and total memory, where its backend reports them (GPUs; not the CPU).
     *
     * @return the figures as of this call, or empty
     */
    public java.util.Optional<dev.audioengine.api.spi.DeviceMemory> deviceMemory() {
        return backend.memory();
    }

    /**
     * The device the primary backend runs on.
     *
     * @return its name, architecture, kind and memory as probed when the engine was built
     */
    public DeviceInfo device() {
        return backend.device();
    }

    /**
     * How the backend was chosen ("requested cuda", "best: picked ...").
     *
     * @return a short note for logs and {@code --verbose}
     */
    public String selectionNote() {
        return selectionNote;
    }

    /**
     * The user's capability switches, as given to {@link Builder#capability}.
     *
     * @return the overrides; {@link CapabilityOverrides#NONE} when none were given
     */
    public CapabilityOverrides overrides() {
        return overrides;
    }

    /**
     * What a model that can use {@code modelUses} may use here: verified ∩ uses, with the user's switches.
     *
     * @param modelUses the capabilities the model has code paths for
     * @return a new set; a model takes the fast path of each capability in it, the plain path otherwise
     */
    public Set<Capability> effectiveCapabilities(Set<Capability> modelUses) {
        return overrides.effective(backend.verifiedCapabilities(), modelUses);
    }

    /**
     * Plans and compiles a graph for this engine; close the result when the shape is no longer needed.
     *
     * @param graph a graph without state leaves; its constants are uploaded once per engine and shared with other
     *     graphs that use the same host tensors
     * @return the compiled graph, owned by the caller, to be closed before the engine
     * @throws IllegalStateException if the engine is closed
     * @throws dev.audioengine.api.exec.UnsupportedOpException if a node cannot run on the backend and fallback is off
     * @throws dev.audioengine.api.spi.OutOfDeviceMemoryException if the graph's memory does not fit on the device
     */
    public CompiledGraph compile(Graph graph) {
        if (closed) throw new IllegalStateException("engine is closed");
        return Compiler.compile(graph, backend, cpuFallback, fallback, weights);
    }

    /**
     * Compiles a graph whose {@code GraphBuilder.state} leaves are bound, by name, to these
     * persistent tensors of this engine. Several graphs may share them (a decoder's prefill and
     * step graphs write the same caches); the compiled graph does not own them.
     *
     * @param graph the graph; each of its state leaves is bound to the tensor of its name
     * @param states one tensor from {@link #state} per state leaf of the graph, matched by name, dtype and shape; no
     *     extras
     * @return the compiled graph, owned by the caller, to be closed before the engine (the states stay open)
     * @throws IllegalStateException if the engine is closed
     * @throws IllegalArgumentException if a state leaf is unbound or mismatched, or a tensor is unused, duplicated or
     *     from another engine
     * @throws dev.audioengine.api.exec.UnsupportedOpException if a node cannot run on the backend and fallback is off
     * @throws dev.audioengine.api.spi.OutOfDeviceMemoryException if the graph's memory does not fit on the device
     */
    public CompiledGraph compile(Graph graph, PersistentTensor... states) {
        if (closed) throw new IllegalStateException("engine is closed");
        return Compiler.compile(graph, backend, cpuFallback, fallback, weights, List.of(states));
    }

    /**
     * Allocates a persistent tensor in this engine's backend memory (its contents are zero):
     * state that graphs read and write across runs without a host round trip. The caller owns
     * it and closes it before the engine.
     *
     * @param name the name that graph state leaves bind by; not blank
     * @param dtype a plain dtype; F32 in practice (writes take F32)
     * @param shape the shape the state leaves must have
     * @return the zeroed tensor, owned by the caller
     * @throws IllegalStateException if the engine is closed
     * @throws IllegalArgumentException if the name is blank or the dtype quantized
     * @throws dev.audioengine.api.spi.OutOfDeviceMemoryException if the device has no room
     */
    public PersistentTensor state(String name, DType dtype, Shape shape) {
        if (closed) throw new IllegalStateException("engine is closed");
        PersistentTensor p = PersistentTensor.allocate(backend, name, dtype, shape);
        try {
            p.zero();
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    /**
     * Bytes of weights uploaded to devices so far.
     *
     * @return the total, counting each weight once per backend; weights the CPU reads in place count 0
     */
    public long uploadedWeightBytes() {
        return weights.uploadedBytes();
    }

    /**
     * Opens another engine on this one's backend and device with the same settings (threads, options, capability
     * switches, fallback): its own weights and, on a GPU, its own stream. Work on a sibling does not take turns with
     * this engine's runs (callers serialize runs per engine), so a small model beside a large one (a VAD beside a
     * decoder's batched steps) runs while the other's work is queued, instead of after it.
     *
     * @return a new engine, owned by the caller, who closes it; closing this engine does not close it
     * @throws dev.audioengine.api.spi.BackendUnavailableException if the device cannot be opened again (out of
     *     memory, or gone)
     * @throws IllegalStateException if this engine is closed
     */
    public AudioEngine sibling() {
        if (closed) throw new IllegalStateException("this engine is closed");
        return settings.build();
    }

    /**
     * An engine for a small model whose runs should not wait behind this engine's (a VAD beside a decoder's batched
     * steps): a {@link #sibling()} when the device runs queues of its own side by side (a GPU's streams), empty on a
     * CPU device, whose cores the two would share anyway, so that one engine is the better choice there. Families ask
     * this instead of looking at the device themselves.
     *
     * @return a new engine owned by the caller, who closes it; or empty: use this engine
     * @throws dev.audioengine.api.spi.BackendUnavailableException if the device cannot be opened again
     * @throws IllegalStateException if this engine is closed
     */
    public java.util.Optional<AudioEngine> sideEngine() {
        if (closed) throw new IllegalStateException("this engine is closed");
        return backend.device().kind() == dev.audioengine.api.spi.DeviceKind.CPU
                ? java.util.Optional.empty()
                : java.util.Optional.of(sibling());
    }

    /**
     * Frees the uploaded weights and closes the backends (idempotent). Close compiled graphs and persistent tensors
     * first: their memory belongs to these backends.
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        weights.close();
        backend.close();
        if (cpuFallback != null) cpuFallback.close();
    }

    /** Settings for an engine; every one has a default that works on any machine with the CPU backend. */
    public static final class Builder {
        private BackendType type = BackendType.CPU;
        private int device = 0;
        private int threads = 0;
        private final List<String> capabilities = new ArrayList<>();
        private final Map<String, String> options = new LinkedHashMap<>();
        private FallbackPolicy fallback = FallbackPolicy.CPU;
        private BackendRegistry registry;
        private boolean concurrentRuns;

        /** A builder with every default: the CPU backend, device 0, all processors, CPU fallback. */
        public Builder() {}

        /**
         * Which backend to open.
         *
         * @param type the backend, or {@link BackendType#BEST_AVAILABLE}; {@link BackendType#CPU} by default
         * @return this builder
         */
        public Builder backend(BackendType type) {
            this.type = type;
            return this;
        }

        /**
         * cpu, cuda, hip, rocm, vulkan, metal or best.
         *
         * @param name one of {@link BackendType#VALID_NAMES}, in any case
         * @return this builder
         * @throws IllegalArgumentException if the name is unknown
         */
        public Builder backend(String name) {
            this.type = BackendType.parse(name);
            return this;
        }

        /**
         * Which of the backend's devices to open.
         *
         * @param device 0-based index among that backend's devices (0 by default); with {@code best}, only 0 or
         *     negative is accepted
         * @return this builder
         */
        public Builder device(int device) {
            this.device = device;
            return this;
        }

        /**
         * CPU worker threads; 0 (the default) means all available processors.
         *
         * @param threads {@code >= 0}; also bounds {@link AudioEngine#hostThreads()} on GPU backends. A negative value
         *     fails in {@link #build()}
         * @return this builder
         */
        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        /**
         * Capability switches such as "-FUSED_ATTENTION" or "+BF16_WEIGHTS".
         *
         * @param switches names with {@code +} (force on) or {@code -} (force off), a bare name meaning {@code +};
         *     several may share one string, comma-separated. Added to earlier calls' switches; checked in {@link
         *     #build()}
         * @return this builder
         */
        public Builder capability(String... switches) {
            capabilities.addAll(List.of(switches));
            return this;
        }

        /**
         * A backend option, e.g. {@code cuda.graphs=off}.
         *
         * @param key the option key, prefixed with the backend's name; {@link #build()} refuses keys the chosen
         *     backend does not read, listing those it does
         * @param value the value, checked by the backend when it opens; a later call with the same key replaces it
         * @return this builder
         */
        public Builder option(String key, String value) {
            options.put(key, value);
            return this;
        }

        /**
         * What to do with nodes the backend cannot run.
         *
         * @param policy {@link FallbackPolicy#CPU} (the default) opens the CPU backend beside a GPU one for them;
         *     {@link FallbackPolicy#FAIL} makes compiling such a graph an error
         * @return this builder
         */
        public Builder fallback(FallbackPolicy policy) {
            this.fallback = policy;
            return this;
        }

        /**
         * Lets calls on different state run at once where the backend allows it ({@link AudioEngine#runLock}): for
         * hosts whose own threads are the parallelism, such as Spark's task slots, each calling on an engine of one
         * thread, where taking turns would leave all but one core idle. Off by default: a run then has the engine's
         * worker threads to itself, which is what a multi-threaded engine wants.
         *
         * @param on true to let runs overlap on backends that run graphs concurrently (the CPU); ignored elsewhere
         * @return this builder
         */
        public Builder concurrentRuns(boolean on) {
            this.concurrentRuns = on;
            return this;
        }

        /**
         * Use this registry instead of ServiceLoader discovery (tests, custom module layers).
         *
         * @param registry the registry to select from, or null for {@link BackendRegistry#load()} (the default)
         * @return this builder
         */
        public Builder registry(BackendRegistry registry) {
            this.registry = registry;
            return this;
        }

        /**
         * Selects and opens the backend (and the CPU backend for fallback, when the primary is a GPU and fallback is
         * CPU).
         *
         * @return the engine, owned by the caller, who closes it
         * @throws IllegalArgumentException if a capability switch is unknown or contradictory, or threads is negative
         * @throws dev.audioengine.api.spi.UnknownOptionException if an option key is not one the backend reads
         * @throws dev.audioengine.api.spi.InvalidOptionValueException if the backend cannot use an option's value
         * @throws dev.audioengine.api.spi.BackendUnavailableException if the backend or device is missing or cannot
         *     be opened; the message describes every backend found
         */
        public AudioEngine build() {
            CapabilityOverrides overrides = CapabilityOverrides.parse(capabilities);
            BackendRegistry reg = registry != null ? registry : BackendRegistry.load();
            BackendRegistry.Selection sel = reg.select(type, device);
            Set<String> known = sel.provider().optionKeys();
            List<String> unknown = options.keySet().stream()
                    .filter(k -> !known.contains(k))
                    .sorted()
                    .toList();
            if (!unknown.isEmpty()) {
                throw new UnknownOptionException("unknown option" + (unknown.size() == 1 ? " " : "s ")
                        + String.join(", ", unknown) + " for the "
                        + sel.provider().registryName() + " backend; its options: "
                        + (known.isEmpty()
                                ? "none"
                                : String.join(", ", known.stream().sorted().toList())));
            }
            BackendConfig config = new BackendConfig(threads, options);
            Backend primary = sel.provider().open(sel.device().index(), config);
            Backend cpu = null;
            try {
                if (sel.provider().type() != BackendType.CPU && fallback == FallbackPolicy.CPU) {
                    BackendProvider cpuProvider = reg.providers().stream()
                            .filter(p -> p.type() == BackendType.CPU)
                            .findFirst()
                            .orElse(null);
                    if (cpuProvider != null) cpu = cpuProvider.open(0, config);
                }
            } catch (RuntimeException e) {
                primary.close();
                throw e;
            }
            Builder again = copy();
            again.type = sel.provider().type();
            again.device = sel.device().index();
            return new AudioEngine(primary, cpu, overrides, fallback, sel.why(), threads, again);
        }

        private Builder copy() {
            Builder b = new Builder();
            b.type = type;
            b.device = device;
            b.threads = threads;
            b.capabilities.addAll(capabilities);
            b.options.putAll(options);
            b.fallback = fallback;
            b.registry = registry;
            b.concurrentRuns = concurrentRuns;
            return b;
        }
    }
}
