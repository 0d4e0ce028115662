package dev.audioengine.cli.command;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.ProbeResult;
import java.util.List;

/** One discovered backend as the {@code backends} command shows it: what it is and what its probe found. */
record BackendEntry(BackendProvider provider, ProbeResult probe, List<Capability> capabilities) {

    static List<BackendEntry> of(BackendRegistry registry) {
        return registry.providers().stream()
                .map(p -> new BackendEntry(
                        p,
                        registry.probe(p),
                        p.verifiedCapabilities().stream().sorted().toList()))
                .toList();
    }

    BackendType type() {
        return provider.type();
    }

    String cliName() {
        return provider.type().cliName();
    }

    String registryName() {
        return provider.registryName();
    }
}
