package dev.audioengine.conformance;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.HostTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a graph on one backend straight through the SPI, with its own placement: every storage
 * root (inputs, constants, every computed tensor) gets its own buffer with {@link #GUARD_BYTES}
 * of sentinel bytes before and after it. Computed tensors start filled with a NaN pattern, so
 * an element a kernel forgets to write shows up as a NaN mismatch. After the run every buffer
 * is downloaded and its guards checked, and inputs and constants must still hold what was
 * uploaded (a kernel must not write into the tensors it reads). Persistent tensors get guarded
 * buffers too, filled by {@link #setState} and kept from run to run (their guards catch an
 * in-place write past the capacity).
 */
public final class GuardedExecution implements AutoCloseable {
    /** Bytes of sentinel on each side of every tensor; a multiple of 64 so tensors stay aligned. */
    public static final int GUARD_BYTES = 256;

    /** Guard sentinel: a byte pattern no kernel writes by accident (not a float zero, one or NaN). */
    static final byte[] SENTINEL = {(byte) 0xA5, (byte) 0x5A, (byte) 0xC3, (byte) 0x3C};

    /** Quiet NaN with a payload: the initial contents of every computed tensor. */
    static final int UNWRITTEN = 0x7FC0DEAD;

    private record Slot(Tensor root, DeviceBuffer buffer, long bytes) {}

    /** What was uploaded into each input and constant, to prove afterwards that nothing wrote there. */
    private final Map<Tensor, MemorySegment> uploaded = new IdentityHashMap<>();

    private final Backend backend;
    private final Graph graph;
    private final Map<Tensor, Slot> slots = new IdentityHashMap<>();
    private final Arena arena = Arena.ofConfined();
    private Executable executable;

    /** Allocates guarded buffers for every storage root of {@code graph} and compiles its compute nodes. */
    public GuardedExecution(Backend backend, Graph graph) {
        this.backend = backend;
        this.graph = graph;
        try {
            for (Tensor t : graph.nodes()) {
                Tensor root = t.storage();
                if (slots.containsKey(root)) continue;
                long bytes = root.storageBytes();
                DeviceBuffer b = backend.allocate(bytes + 2L * GUARD_BYTES);
                slots.put(root, new Slot(root, b, bytes));
            }
            for (Slot s : slots.values()) {
                MemorySegment host = arena.allocate(s.bytes() + 2L * GUARD_BYTES, 64);
                fillGuards(host, s.bytes());
                if (s.root().op() instanceof Op.Constant c) {
                    MemorySegment.copy(c.value().data(), 0, host, GUARD_BYTES, s.bytes());
                    uploaded.put(s.root(), host.asSlice(GUARD_BYTES, s.bytes()));
                } else if (!(s.root().op() instanceof Op.Input)) {
                    fillUnwritten(host, s.bytes());
                }
                backend.upload(s.buffer(), 0, host);
            }
            executable = backend.compile(graph.computeNodes(), placement());
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private TensorPlacement placement() {
        return new TensorPlacement() {
            @Override
            public DeviceBuffer buffer(Tensor t) {
                return slot(t).buffer();
            }

            @Override
            public long byteOffset(Tensor t) {
                return GUARD_BYTES + t.dtype().bytesFor(t.offset());
            }

            private Slot slot(Tensor t) {
                Slot s = slots.get(t.storage());
                if (s == null)
                    throw new IllegalStateException(
                            "backend asked for the placement of " + t + ", which is not in the graph");
                return s;
            }
        };
    }

    /** Sets a persistent tensor's contents (before the first run, or between runs). */
    public void setState(String name, HostTensor value) {
        Tensor leaf = graph.state(name);
        if (value.dtype() != leaf.dtype() || !value.shape().equals(leaf.shape())) {
            throw new IllegalArgumentException(
                    "state '" + name + "' must be " + leaf.dtype() + " " + leaf.shape() + ", got " + value);
        }
        backend.upload(slots.get(leaf).buffer(), GUARD_BYTES, value.data());
    }

    /** Uploads the inputs (by name) into their guarded slots and runs the compiled nodes once. */
    public void run(Map<String, HostTensor> inputs) {
        for (Tensor in : graph.inputs()) {
            HostTensor v = inputs.get(in.name());
            if (v == null) throw new IllegalArgumentException("no value for input '" + in.name() + "'");
            if (v.dtype() != in.dtype() || !v.shape().equals(in.shape())) {
                throw new IllegalArgumentException(
                        "input '" + in.name() + "' must be " + in.dtype() + " " + in.shape() + ", got " + v);
            }
            backend.upload(slots.get(in).buffer(), GUARD_BYTES, v.data());
            uploaded.put(in, arena.allocate(v.byteSize(), 64).copyFrom(v.data()));
        }
        executable.run();
    }

    /** Runs again without uploading (for benchmarks: the inputs are already there). */
    public void rerun() {
        executable.run();
    }

    /**
     * Downloads every buffer and lists each guard region that changed and each input or constant
     * that no longer holds what was uploaded, with the first changed byte.
     */
    public List<String> memoryViolations() {
        List<String> bad = new ArrayList<>();
        for (Slot s : slots.values()) {
            MemorySegment host = download(s);
            checkGuard(host, 0, s, "before", bad);
            checkGuard(host, GUARD_BYTES + s.bytes(), s, "after", bad);
            MemorySegment before = uploaded.get(s.root());
            if (before != null) {
                long at = host.asSlice(GUARD_BYTES, s.bytes()).mismatch(before);
                if (at >= 0)
                    bad.add("the backend wrote into input " + s.root() + " (first changed byte at " + at + ")");
            }
        }
        return bad;
    }

    /** {@code t}'s values in row-major order as doubles (dequantized; I32 as integers). */
    public double[] values(Tensor t) {
        Slot s = slots.get(t.storage());
        if (s == null) throw new IllegalArgumentException(t + " is not in this graph");
        MemorySegment host = download(s).asSlice(GUARD_BYTES, s.bytes());
        try (HostTensor whole = HostTensor.wrap(s.root().dtype(), s.root().shape(), host)) {
            return TensorValues.of(whole, t);
        }
    }

    private MemorySegment download(Slot s) {
        MemorySegment host = arena.allocate(s.bytes() + 2L * GUARD_BYTES, 64);
        backend.download(s.buffer(), 0, host);
        return host;
    }

    private static void fillGuards(MemorySegment host, long bytes) {
        for (long i = 0; i < GUARD_BYTES; i++) {
            host.set(ValueLayout.JAVA_BYTE, i, SENTINEL[(int) (i & 3)]);
            host.set(ValueLayout.JAVA_BYTE, GUARD_BYTES + bytes + i, SENTINEL[(int) (i & 3)]);
        }
    }

    private static void fillUnwritten(MemorySegment host, long bytes) {
        long i = 0;
        for (; i + 4 <= bytes; i += 4) host.set(ValueLayout.JAVA_INT_UNALIGNED, GUARD_BYTES + i, UNWRITTEN);
        for (; i < bytes; i++) host.set(ValueLayout.JAVA_BYTE, GUARD_BYTES + i, (byte) 0x7F);
    }

    private static void checkGuard(MemorySegment host, long from, Slot s, String side, List<String> bad) {
        int changed = 0;
        long first = -1;
        for (long i = 0; i < GUARD_BYTES; i++) {
            if (host.get(ValueLayout.JAVA_BYTE, from + i) != SENTINEL[(int) (i & 3)]) {
                changed++;
                if (first < 0) first = i;
            }
        }
        if (changed > 0) {
            long pos = side.equals("before") ? first - GUARD_BYTES : first;
            bad.add(changed + " guard byte(s) " + side + " " + s.root() + " overwritten (first at byte "
                    + (side.equals("before") ? pos : "+" + pos) + " relative to the tensor's "
                    + (side.equals("before") ? "start" : "end") + ")");
        }
    }

    @Override
    public void close() {
        if (executable != null) executable.close();
        for (Slot s : slots.values()) s.buffer().close();
        slots.clear();
        if (arena.scope().isAlive()) arena.close();
    }
}
