package dev.audioengine.api.spi;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import java.util.Set;

/**
 * The service a backend module provides. Constructing one is cheap and loads nothing native;
 * {@link #probe()} does the loading and never throws.
 */
public interface BackendProvider {

    /**
     * The name shown to users and in run summaries: "CPU", "CUDA", "ROCm", "Vulkan".
     *
     * @return a short display name; {@link BackendType#cliName()} is the spelling users type
     */
    String registryName();

    /**
     * Which backend family this provides; the registry selects providers by it.
     *
     * @return the type, never {@link BackendType#BEST_AVAILABLE}
     */
    BackendType type();

    /**
     * Loads the vendor library if needed and lists devices; never throws. Cached by the registry.
     *
     * @return available with the devices found, or unavailable with what was tried and what to do
     */
    ProbeResult probe();

    /**
     * The capabilities whose conformance cases pass on this backend (see README, "Capabilities").
     *
     * @return an unmodifiable set; fixed per release, not probed
     */
    Set<Capability> verifiedCapabilities();

    /**
     * The {@code --option} keys this backend reads ({@code cuda.graphs}, ...); any other key given to it is refused
     * with this list, so a typo never passes silently.
     *
     * @return the keys, each prefixed with the backend's CLI name ({@code cpu.op-threads}); empty (the default) when
     *     it reads none
     */
    default Set<String> optionKeys() {
        return Set.of();
    }

    /**
     * Opens device {@code device} (0-based among this backend's devices). Throws
     * {@link BackendUnavailableException} with a useful message when it cannot.
     *
     * @param device an index into {@link ProbeResult#devices()} of this provider's probe
     * @param config threads and backend options; the provider validates its option values
     * @return the opened backend, which the caller owns and closes
     * @throws BackendUnavailableException if the library, the device or its context cannot be used
     * @throws InvalidOptionValueException if an option's value is not one the backend takes
     */
    Backend open(int device, BackendConfig config);
}
