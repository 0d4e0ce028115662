package dev.audioengine.tools;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.cli.GlobalOptions;
import dev.audioengine.conformance.BackendReference;
import dev.audioengine.conformance.Float64Reference;
import dev.audioengine.conformance.Reference;
import java.util.ArrayList;
import java.util.List;

/**
 * The backends {@code check} and {@code bench ops} work on: the one --backend names (an
 * unavailable one is an error, as everywhere), or with --backend all every available backend.
 * Also opens each one's reference: the float64 evaluator for the CPU, the CPU backend otherwise.
 */
final class CheckTargets {
    private CheckTargets() {}

    /** Providers to run, in registry order; never empty. */
    static List<BackendProvider> providers(GlobalOptions g, BackendRegistry registry) {
        if (!g.allBackends())
            return List.of(registry.select(g.backend(), g.device()).provider());
        List<BackendProvider> out = new ArrayList<>();
        for (BackendProvider p : registry.providers()) {
            ProbeResult r = registry.probe(p);
            if (r.available() && !r.devices().isEmpty()) out.add(p);
        }
        if (out.isEmpty()) throw new BackendUnavailableException("no backend is available.\n" + registry.describe());
        return out;
    }

    /** Device 0 under --backend all (each backend's first device), --device otherwise. */
    static int device(GlobalOptions g) {
        return g.allBackends() ? 0 : g.device();
    }

    static BackendConfig config(GlobalOptions g) {
        return new BackendConfig(g.threads(), g.options());
    }

    /**
     * What the results of {@code provider}'s backend are compared with: float64 for the CPU
     * itself, the CPU backend for everything else (opened here; closing the returned reference
     * closes it).
     */
    static Reference referenceFor(BackendProvider provider, GlobalOptions g, BackendRegistry registry) {
        if (provider.type() == BackendType.CPU) return new Float64Reference();
        BackendProvider cpu = registry.providers().stream()
                .filter(p -> p.type() == BackendType.CPU)
                .findFirst()
                .orElseThrow(
                        () -> new BackendUnavailableException(
                                "checking " + provider.registryName()
                                        + " compares it with the CPU backend, which is not installed (add the audioengine-backend-cpu jar to lib/)"));
        return BackendReference.owning(cpu.open(0, config(g)));
    }
}
