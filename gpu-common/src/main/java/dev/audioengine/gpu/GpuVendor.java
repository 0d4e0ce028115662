package dev.audioengine.gpu;

import dev.audioengine.api.capability.Capability;
import java.util.Set;

/**
 * What the op layer needs to know about the vendor beyond its tables: the registry name, the prefix
 * of its options ({@code cuda.graphs}, {@code hip.graphs}), the capabilities verified on its
 * hardware, and whether graph capture is on unless the user says otherwise.
 */
public record GpuVendor(String registryName, String optionPrefix, Set<Capability> verified, boolean graphsByDefault) {
    public GpuVendor {
        verified = Set.copyOf(verified);
    }
}
