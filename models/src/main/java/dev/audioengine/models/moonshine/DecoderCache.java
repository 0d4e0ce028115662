package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.PersistentTensor;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The decoder's key/value caches on the device, one set per decoding session or batch: per layer the self-attention
 * cache [slots, Hkv, selfCapacity, hd], written one position per step, and the cross-attention keys and values
 * [slots, Hkv, crossCapacity, hd], written once per window by the encoder graph; one slot per sequence. Fixed capacities and length masks keep
 * one compiled step graph for every position (docs/STATE.md); what lies past the current lengths is stale and masked.
 */
final class DecoderCache implements AutoCloseable {
    final int selfCapacity, crossCapacity;
    private final List<PersistentTensor> tensors = new ArrayList<>();

    DecoderCache(AudioEngine engine, MoonshineConfig c, int slots, int selfCapacity, int crossCapacity) {
        this.selfCapacity = selfCapacity;
        this.crossCapacity = crossCapacity;
        try {
            for (int l = 0; l < c.decoderLayers(); l++) {
                for (String kind : KINDS) {
                    int capacity = kind.startsWith("self") ? selfCapacity : crossCapacity;
                    tensors.add(engine.state(
                            MoonshineNetwork.cacheName(kind, l),
                            dev.audioengine.api.tensor.DType.F32,
                            MoonshineNetwork.cacheShape(c, slots, capacity)));
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    static final List<String> KINDS = List.of("self_k", "self_v", "cross_k", "cross_v");

    PersistentTensor[] all() {
        return tensors.toArray(PersistentTensor[]::new);
    }

    /** The cross-attention tensors only (what the encoder graph writes). */
    PersistentTensor[] cross() {
        return tensors.stream().filter(t -> t.name().contains(".cross_")).toArray(PersistentTensor[]::new);
    }

    /** Bytes of the caches one slot holds: what each more sequence in a batch costs on the device. */
    static long bytesPerSlot(MoonshineConfig c, int selfCapacity, int crossCapacity) {
        return 2L * c.decoderLayers() * c.decoderKvHeads() * c.decoderHeadDim() * (selfCapacity + crossCapacity) * 4;
    }

    long bytes() {
        return tensors.stream().mapToLong(PersistentTensor::byteSize).sum();
    }

    @Override
    public void close() {
        tensors.forEach(PersistentTensor::close);
    }
}
