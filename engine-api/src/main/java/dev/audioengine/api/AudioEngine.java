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
    private boolean closed;

    private AudioEngine(
            Backend backend,
            Backend cpuFallback,
            CapabilityOverrides overrides,
            FallbackPolicy fallback,
            String note,
            int threads) {
        this.hostThreads = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        this.backend = backend;
        this.cpuFallback = cpuFallback;
        this.overrides = overrides;
        this.fallback = fallback;
        this.selectionNote = note;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The primary backend. */
    public Backend backend() {
        return backend;
    }

    /**
     * Threads a model's own host-side arithmetic may use (work the graph API does not express, such as Kokoro's
     * harmonic source): the {@link Builder#threads} setting, else all available processors; so one thread asked
     * for is one thread used, on any backend.
     */
    public int hostThreads() {
        return hostThreads;
    }

    /** The selected device's free and total memory, where its backend reports them (GPUs; not the CPU). */
    public java.util.Optional<dev.audioengine.api.spi.DeviceMemory> deviceMemory() {
        return backend.memory();
    }

    public DeviceInfo device() {
        return backend.device();
    }

    /** How the backend was chosen ("requested cuda", "best: picked ..."). */
    public String selectionNote() {
        return selectionNote;
    }

    public CapabilityOverrides overrides() {
        return overrides;
    }

    /** What a model that can use {@code modelUses} may use here: verified ∩ uses, with the user's switches. */
    public Set<Capability> effectiveCapabilities(Set<Capability> modelUses) {
        return overrides.effective(backend.verifiedCapabilities(), modelUses);
    }

    /** Plans and compiles a graph for this engine; close the result when the shape is no longer needed. */
    public CompiledGraph compile(Graph graph) {
        if (closed) throw new IllegalStateException("engine is closed");
        return Compiler.compile(graph, backend, cpuFallback, fallback, weights);
    }

    /**
     * Compiles a graph whose {@code GraphBuilder.state} leaves are bound, by name, to these
     * persistent tensors of this engine. Several graphs may share them (a decoder's prefill and
     * step graphs write the same caches); the compiled graph does not own them.
     */
    public CompiledGraph compile(Graph graph, PersistentTensor... states) {
        if (closed) throw new IllegalStateException("engine is closed");
        return Compiler.compile(graph, backend, cpuFallback, fallback, weights, List.of(states));
    }

    /**
     * Allocates a persistent tensor in this engine's backend memory (its contents are zero):
     * state that graphs read and write across runs without a host round trip. The caller owns
     * it and closes it before the engine.
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

    /** Bytes of weights uploaded to devices so far. */
    public long uploadedWeightBytes() {
        return weights.uploadedBytes();
    }

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

        public Builder backend(BackendType type) {
            this.type = type;
            return this;
        }

        /** cpu, cuda, hip, rocm, vulkan, metal or best. */
        public Builder backend(String name) {
            this.type = BackendType.parse(name);
            return this;
        }

        public Builder device(int device) {
            this.device = device;
            return this;
        }

        /** CPU worker threads; 0 (the default) means all available processors. */
        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        /** Capability switches such as "-FUSED_ATTENTION" or "+BF16_WEIGHTS". */
        public Builder capability(String... switches) {
            capabilities.addAll(List.of(switches));
            return this;
        }

        /** A backend option, e.g. {@code cuda.graphs=off}. */
        public Builder option(String key, String value) {
            options.put(key, value);
            return this;
        }

        public Builder fallback(FallbackPolicy policy) {
            this.fallback = policy;
            return this;
        }

        /** Use this registry instead of ServiceLoader discovery (tests, custom module layers). */
        public Builder registry(BackendRegistry registry) {
            this.registry = registry;
            return this;
        }

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
            return new AudioEngine(primary, cpu, overrides, fallback, sel.why(), threads);
        }
    }
}
