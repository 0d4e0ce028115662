package dev.audioengine.tools;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.TensorPlacement;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Set;

/**
 * A deliberately broken backend for testing the harness: the CPU backend, except that nodes of
 * one op get a fault after their kernel runs (or instead of it).
 */
final class CorruptingBackend implements Backend {

    enum Fault {
        /** Run the kernel faithfully: the control that shows the wrapper itself is harmless. */
        NONE,
        /** Double one element: a wrong index or a missed term in one place. */
        ONE_WRONG_ELEMENT,
        /** Multiply every element by 1.001: a small systematic error (wrong constant, lost precision). */
        SCALED_BY_1_001,
        /** Turn one element into NaN. */
        ONE_NAN,
        /** Write one float just past the end of the output. */
        WRITE_PAST_END,
        /** Write one float just before the start of the output. */
        WRITE_BEFORE_START,
        /** Overwrite the first element of the node's first input after running. */
        WRITE_INTO_INPUT,
        /** Skip the kernel: the output keeps whatever was in memory. */
        SKIP_KERNEL,
        /** Claim no support for the op. */
        UNSUPPORTED
    }

    private final Backend cpu;
    private final String op;
    private final Fault fault;
    private final String name;

    CorruptingBackend(Backend cpu, String op, Fault fault, String registryName) {
        this.cpu = cpu;
        this.op = op;
        this.fault = fault;
        this.name = registryName;
    }

    @Override
    public String registryName() {
        return name;
    }

    @Override
    public DeviceInfo device() {
        return cpu.device();
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return cpu.verifiedCapabilities();
    }

    @Override
    public boolean supportsOp(Tensor node) {
        return !(fault == Fault.UNSUPPORTED && node.op().opName().equals(op)) && cpu.supportsOp(node);
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        return cpu.allocate(bytes);
    }

    @Override
    public void upload(DeviceBuffer dst, long dstOffset, MemorySegment src) {
        cpu.upload(dst, dstOffset, src);
    }

    @Override
    public void download(DeviceBuffer src, long srcOffset, MemorySegment dst) {
        cpu.download(src, srcOffset, dst);
    }

    @Override
    public Executable compile(List<Tensor> nodes, TensorPlacement placement) {
        List<Tensor> targets =
                nodes.stream().filter(n -> n.op().opName().equals(op)).toList();
        List<Tensor> kept = fault == Fault.SKIP_KERNEL
                ? nodes.stream().filter(n -> !targets.contains(n)).toList()
                : nodes;
        Executable inner = kept.isEmpty() ? () -> {} : cpu.compile(kept, placement);
        return () -> {
            inner.run();
            for (Tensor t : targets) corrupt(t, placement);
        };
    }

    private void corrupt(Tensor t, TensorPlacement placement) {
        DeviceBuffer buf = placement.buffer(t);
        long off = placement.byteOffset(t), bytes = t.storageBytes();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(bytes, 64);
            cpu.download(buf, off, host);
            long n = bytes / 4;
            MemorySegment one = arena.allocate(4);
            switch (fault) {
                case ONE_WRONG_ELEMENT ->
                    host.setAtIndex(
                            ValueLayout.JAVA_FLOAT, n / 2, 2 * host.getAtIndex(ValueLayout.JAVA_FLOAT, n / 2) + 1);
                case SCALED_BY_1_001 -> {
                    for (long i = 0; i < n; i++)
                        host.setAtIndex(ValueLayout.JAVA_FLOAT, i, host.getAtIndex(ValueLayout.JAVA_FLOAT, i) * 1.001f);
                }
                case ONE_NAN -> host.setAtIndex(ValueLayout.JAVA_FLOAT, n - 1, Float.NaN);
                case WRITE_PAST_END -> {
                    one.set(ValueLayout.JAVA_FLOAT, 0, 1f);
                    cpu.upload(buf, off + bytes, one);
                    return;
                }
                case WRITE_BEFORE_START -> {
                    one.set(ValueLayout.JAVA_FLOAT, 0, 1f);
                    cpu.upload(buf, off - 4, one);
                    return;
                }
                case WRITE_INTO_INPUT -> {
                    Tensor in = t.input(0);
                    one.set(ValueLayout.JAVA_FLOAT, 0, 12345f);
                    cpu.upload(placement.buffer(in), placement.byteOffset(in), one);
                    return;
                }
                default -> {
                    return;
                }
            }
            cpu.upload(buf, off, host);
        }
    }

    @Override
    public void close() {
        cpu.close();
    }
}
