package dev.audioengine.api.spi;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import java.util.Set;

/**
 * The service a backend module provides. Constructing one is cheap and loads nothing native;
 * {@link #probe()} does the loading and never throws.
 */
public interface BackendProvider {

    /** The name shown to users and in run summaries: "CPU", "CUDA", "ROCm", "Vulkan". */
    String registryName();

    BackendType type();

    /** Loads the vendor library if needed and lists devices; never throws. Cached by the registry. */
    ProbeResult probe();

    /** The capabilities whose conformance cases pass on this backend (see README, "Capabilities"). */
    Set<Capability> verifiedCapabilities();

    /**
     * The {@code --option} keys this backend reads ({@code cuda.graphs}, ...); any other key given to it is refused
     * with this list, so a typo never passes silently.
     */
    default Set<String> optionKeys() {
        return Set.of();
    }

    /**
     * Opens device {@code device} (0-based among this backend's devices). Throws
     * {@link BackendUnavailableException} with a useful message when it cannot.
     */
    Backend open(int device, BackendConfig config);
}
