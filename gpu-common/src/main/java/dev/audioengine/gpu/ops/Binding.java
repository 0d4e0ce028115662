package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.gpu.exec.KernelLaunch;
import dev.audioengine.gpu.exec.Step;
import dev.audioengine.gpu.runtime.GpuBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * What an op needs while it is bound at compile time: device addresses of its tensors, the
 * kernel cache, the GEMM library, scratch memory, and the list of steps it appends to. The
 * launch arguments live in {@link #arena}, owned by the compiled segment, carved from 64 KiB
 * slabs (one native allocation per slab, not per argument: Kokoro binds ~30,000 arguments a sentence).
 * <p>
 * Scratch is shared by the segment's ops: an op's scratch is used only by that op's own steps, and
 * the steps run in order on one stream, so every op's requests start again at the beginning of one
 * buffer (a new, larger one when an op needs more than it holds). Before, each op had its own: a
 * Kokoro synthesis graph allocated some forty im2col buffers of up to 190 MB each, per sentence.
 */
public final class Binding {
    static final int THREADS = 256;
    /** Grid-stride loops: enough blocks to fill the device several times over, never more. */
    static final long MAX_BLOCKS = 65536;

    final BindContext device;
    final Arena arena;
    private final TensorPlacement placement;
    private final List<Step> steps = new ArrayList<>();
    private final List<GpuBuffer> scratch = new ArrayList<>();
    private final List<DecodedWeights.Copy> decoded = new ArrayList<>();
    /** The op being bound, which labels its steps in a profile. */
    private String op = "-";

    private static final long SLAB_BYTES = 64 * 1024, SCRATCH_ALIGN = 256;
    private SegmentAllocator slab;
    private long slabLeft;
    /** The shared scratch buffer, its size, and how much of it the op being bound has taken. */
    private long scratchBase, scratchCapacity, scratchTaken;

    /** {@code placement} null when nothing is placed (launches on raw addresses only). */
    public Binding(BindContext device, TensorPlacement placement, Arena arena) {
        this.device = device;
        this.placement = placement;
        this.arena = arena;
    }

    /** Device address of {@code t}'s first element. */
    long ptr(Tensor t) {
        return GpuBuffer.of(placement.buffer(t)).address() + placement.byteOffset(t);
    }

    /** Device address of an optional input, 0 (a null pointer in the kernel) when absent. */
    long ptrOrNull(Tensor node, int input) {
        return node.inputs().size() > input ? ptr(node.input(input)) : 0;
    }

    LaunchArgs args() {
        return new LaunchArgs(this::allocateArgument);
    }

    /** {@code bytes} from the current slab (a new one when it is used up), aligned as asked. */
    private MemorySegment allocateArgument(long bytes, long alignment) {
        long need = bytes + alignment;
        if (need > SLAB_BYTES) return arena.allocate(bytes, alignment);
        if (slab == null || need > slabLeft) {
            slab = SegmentAllocator.slicingAllocator(arena.allocate(SLAB_BYTES, 16));
            slabLeft = SLAB_BYTES;
        }
        slabLeft -= need; // an upper bound of what slicing takes with its alignment padding
        return slab.allocate(bytes, alignment);
    }

    /** A 1-D grid-stride launch over {@code n} items with {@value #THREADS} threads per block; none when n == 0. */
    void grid1d(String source, String kernel, long n, LaunchArgs a) {
        if (n <= 0) return;
        long blocks = Math.min(MAX_BLOCKS, (n + THREADS - 1) / THREADS);
        launch(source, kernel, (int) blocks, 1, 1, THREADS, 1, 1, 0, a);
    }

    /**
     * {@code rows} rows of {@code width} items: rows along grid y, items along x, both grid-stride loops in the
     * kernel (gc_grid_dim_y, gc_global_stride); none when either is 0.
     */
    void grid2d(String source, String kernel, long rows, long width, LaunchArgs a) {
        if (rows <= 0 || width <= 0) return;
        int gx = (int) Math.min((width + THREADS - 1) / THREADS, 1024), gy = (int) Math.min(rows, 65535);
        launch(source, kernel, gx, gy, 1, THREADS, 1, 1, 0, a);
    }

    /** One block of {@value #THREADS} threads per row. */
    void perRow(String source, String kernel, long rows, LaunchArgs a) {
        if (rows <= 0) return;
        if (rows > Integer.MAX_VALUE) throw new IllegalArgumentException(rows + " rows exceed one launch's grid");
        launch(source, kernel, (int) rows, 1, 1, THREADS, 1, 1, 0, a);
    }

    void launch(
            String source, String kernel, int gx, int gy, int gz, int bx, int by, int bz, int shared, LaunchArgs a) {
        MemorySegment f = device.kernels().function(source, kernel);
        if (shared > 48 * 1024) device.runtime().setMaxDynamicShared(f, shared);
        steps.add(new KernelLaunch(device.runtime(), kernel, f, gx, gy, gz, bx, by, bz, shared, a.pack(), op));
    }

    /** A library call (a GEMM) made for the op being bound; {@code what} names it in a profile. */
    void add(String what, Step s) {
        steps.add(Step.labelled(op + " " + what, s));
    }

    /** Names the op whose steps follow; its scratch starts again at the shared buffer's beginning. */
    void bindingOp(String name) {
        op = name;
        scratchTaken = 0;
    }

    /**
     * {@code bytes} of device memory for the op being bound, valid while its steps run (the next op's scratch
     * reuses it); owned by the compiled segment (freed when it closes).
     */
    long scratch(long bytes) {
        long need = (Math.max(bytes, 1) + SCRATCH_ALIGN - 1) / SCRATCH_ALIGN * SCRATCH_ALIGN;
        if (scratchBase == 0 || scratchTaken + need > scratchCapacity) {
            // the op's earlier requests stay where they are, in the buffer they were given
            long size = Math.max(need, scratchCapacity);
            GpuBuffer b = device.scratch().apply(size);
            scratch.add(b);
            scratchBase = b.address();
            scratchCapacity = size;
            scratchTaken = 0;
        }
        long address = scratchBase + scratchTaken;
        scratchTaken += need;
        return address;
    }

    /**
     * Device address of an F32 copy of the quantized constant {@code w} ([n, k], rows {@code rowStride} elements
     * apart), shared with every open segment of the backend ({@link DecodedWeights}); this segment's first run
     * decodes it when no segment has yet. Handed back when the segment closes ({@link #releaseDecoded()}).
     */
    long decodedWeight(Tensor w, long n, long k, long rowStride) {
        DecodedWeights.Key key = new DecodedWeights.Key(ptr(w), w.dtype().ordinal(), n, k, rowStride);
        DecodedWeights.Copy copy = device.decoded().acquire(key);
        decoded.add(copy);
        long count = n * k;
        KernelLaunch decode = new KernelLaunch(
                device.runtime(),
                "ae_cast_to_f32",
                device.kernels().function("layout", "ae_cast_to_f32"),
                (int) Math.min(MAX_BLOCKS, (count + THREADS - 1) / THREADS),
                1,
                1,
                THREADS,
                1,
                1,
                0,
                args().i32(key.dtype())
                        .i64(count)
                        .ptr(copy.address())
                        .ptr(key.address())
                        .desc(new TensorDesc(new long[] {1, 1, n, k}, new long[] {0, 0, rowStride, 1}))
                        .pack(),
                op);
        // enqueued once per copy: by the first run of the first segment that runs, never captured into a graph (a
        // segment's first runs go launch by launch), so replays read the filled copy
        steps.add(new Step() {
            @Override
            public void enqueue(MemorySegment stream) {
                if (copy.filled) return;
                decode.enqueue(stream);
                copy.filled = true;
            }

            @Override
            public String label() {
                return decode.label();
            }
        });
        return copy.address();
    }

    /** Hands back the decoded weight copies this segment acquired; each is freed when no open segment uses it. */
    public void releaseDecoded() {
        for (DecodedWeights.Copy c : decoded) device.decoded().release(c);
        decoded.clear();
    }

    public List<Step> steps() {
        return steps;
    }

    public List<GpuBuffer> scratchBuffers() {
        return scratch;
    }
}
