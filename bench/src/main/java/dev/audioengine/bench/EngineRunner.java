package dev.audioengine.bench;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.HostTensor;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The "ours" side of a benchmark: one graph compiled by a backend (the same {@code
 * Backend.compile} and {@code Executable.run} a CompiledGraph replays) once per input slot, each
 * slot with its own device buffers holding its own input values, so consecutive runs read
 * different memory. Inputs are uploaded once; only {@link #run} is timed.
 */
final class EngineRunner implements AutoCloseable {
    private final Backend backend;
    private final List<DeviceBuffer> buffers = new ArrayList<>();
    private final List<Executable> slots = new ArrayList<>();

    /** {@code inputs.get(s)} holds slot s's value for every graph input, by name. */
    EngineRunner(Backend backend, Graph graph, List<Map<String, HostTensor>> inputs) {
        this.backend = backend;
        try {
            for (Map<String, HostTensor> values : inputs) {
                Map<Tensor, DeviceBuffer> roots = new IdentityHashMap<>();
                for (Tensor t : graph.nodes()) {
                    Tensor root = t.storage();
                    if (roots.containsKey(root)) continue;
                    DeviceBuffer b = backend.allocate(Math.max(64, root.storageBytes()));
                    buffers.add(b);
                    roots.put(root, b);
                    HostTensor v = root.op() instanceof Op.Input in
                            ? values.get(in.name())
                            : root.op() instanceof Op.Constant c ? c.value() : null;
                    if (root.op() instanceof Op.Input in && v == null)
                        throw new IllegalArgumentException("no value for input " + in.name());
                    if (v != null) backend.upload(b, 0, v.data());
                }
                slots.add(backend.compile(graph.computeNodes(), new TensorPlacement() {
                    @Override
                    public DeviceBuffer buffer(Tensor t) {
                        return roots.get(t.storage());
                    }

                    @Override
                    public long byteOffset(Tensor t) {
                        return t.dtype().bytesFor(t.offset());
                    }
                }));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    int slots() {
        return slots.size();
    }

    /** Runs slot {@code slot} and waits for it (a no-op wait on the CPU, whose runs are synchronous). */
    void run(int slot) {
        slots.get(slot % slots.size()).run();
        backend.synchronize();
    }

    @Override
    public void close() {
        slots.forEach(Executable::close);
        buffers.forEach(DeviceBuffer::close);
        slots.clear();
        buffers.clear();
    }
}
