package dev.audioengine.api.registry;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.ProbeResult;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** A provider whose probe answer is scripted; counts probes so caching can be checked. It never opens. */
final class FakeProvider implements BackendProvider {
    private final BackendType type;
    private final String registryName;
    private final Supplier<ProbeResult> probe;
    final AtomicInteger probes = new AtomicInteger();

    FakeProvider(BackendType type, String registryName, Supplier<ProbeResult> probe) {
        this.type = type;
        this.registryName = registryName;
        this.probe = probe;
    }

    static FakeProvider available(BackendType type, String registryName, DeviceInfo... devices) {
        return new FakeProvider(type, registryName, () -> ProbeResult.available(List.of(devices), null));
    }

    static FakeProvider unavailable(BackendType type, String registryName, String reason) {
        return new FakeProvider(type, registryName, () -> ProbeResult.unavailable(reason));
    }

    static DeviceInfo device(int index, String name, DeviceKind kind) {
        return new DeviceInfo(index, name, "arch-" + name, kind, 1L << 30, 1L << 29);
    }

    @Override
    public String registryName() {
        return registryName;
    }

    @Override
    public BackendType type() {
        return type;
    }

    @Override
    public ProbeResult probe() {
        probes.incrementAndGet();
        return probe.get();
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return Set.of();
    }

    @Override
    public Backend open(int device, BackendConfig config) {
        throw new BackendUnavailableException("fake provider " + registryName + " cannot open devices");
    }
}
