package dev.audioengine.backend.cuda;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.ProbeResult;

import java.util.Set;

/** Discovered and listed; its kernels arrive with the CUDA backend issue. */
public final class CudaBackendProvider implements BackendProvider {
    @Override public String registryName() { return "CUDA"; }

    @Override public BackendType type() { return BackendType.CUDA; }

    @Override
    public ProbeResult probe() {
        return ProbeResult.unavailable("the CUDA backend has no kernels in this build");
    }

    @Override public Set<Capability> verifiedCapabilities() { return Set.of(); }

    @Override
    public Backend open(int device, BackendConfig config) {
        throw new BackendUnavailableException(probe().reason());
    }
}
