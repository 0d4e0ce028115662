package dev.audioengine.gpu.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** A GpuRuntime with no device behind it: records the calls, hands out addresses from a fixed capacity. */
public final class FakeRuntime implements GpuRuntime {
    public final List<String> calls = new ArrayList<>();
    private final long capacity;
    private long used;
    private long next = 0x1000;
    private final Arena host = Arena.ofAuto();

    public FakeRuntime(long capacity) {
        this.capacity = capacity;
    }

    @Override
    public String vendor() {
        return "HIP";
    }

    @Override
    public void makeCurrent() {}

    @Override
    public long[] memInfo() {
        return new long[] {capacity - used, capacity};
    }

    /** LDS of a workgroup on most AMD GPUs; tests change it. */
    public int maxShared = 64 * 1024;

    @Override
    public int maxSharedPerBlock() {
        return maxShared;
    }

    @Override
    public long alloc(long bytes, MemorySegment stream) {
        if (used + bytes > capacity) {
            calls.add("alloc failed");
            return 0;
        }
        used += bytes;
        long a = next;
        next += (bytes + 255) & ~255L;
        calls.add("alloc " + bytes);
        return a;
    }

    @Override
    public void free(long address, MemorySegment stream) {
        calls.add("free");
    }

    @Override
    public void releaseCachedMemory() {
        calls.add("releaseCachedMemory");
    }

    @Override
    public void copyHtoD(long dst, MemorySegment src, long bytes) {
        calls.add("copyHtoD " + bytes);
    }

    @Override
    public void copyDtoH(MemorySegment dst, long src, long bytes) {
        calls.add("copyDtoH " + bytes);
    }

    @Override
    public void copyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
        calls.add("copyHtoDAsync " + bytes);
    }

    @Override
    public void copyDtoDAsync(long dst, long src, long bytes, MemorySegment stream) {
        calls.add("copyDtoDAsync");
    }

    @Override
    public void memsetAsync(long dst, byte value, long bytes, MemorySegment stream) {
        calls.add("memsetAsync");
    }

    @Override
    public MemorySegment hostAlloc(long bytes) {
        calls.add("hostAlloc " + bytes);
        return host.allocate(bytes);
    }

    @Override
    public void hostFree(MemorySegment memory) {
        calls.add("hostFree");
    }

    @Override
    public MemorySegment loadModule(MemorySegment image) {
        calls.add("loadModule");
        return MemorySegment.ofAddress(0x10);
    }

    /** Kernel names by the address function() gave them, and every launch as (kernel, its packed arguments). */
    private final List<String> functions = new ArrayList<>();

    public record Launch(String kernel, MemorySegment params) {}

    public final List<Launch> launches = new ArrayList<>();

    @Override
    public MemorySegment function(MemorySegment module, String name) {
        if (!functions.contains(name)) functions.add(name);
        return MemorySegment.ofAddress(0x20 + 0x10L * functions.indexOf(name));
    }

    @Override
    public void unloadModule(MemorySegment module) {
        calls.add("unloadModule");
    }

    @Override
    public void setMaxDynamicShared(MemorySegment function, int bytes) {}

    @Override
    public void launch(
            MemorySegment f,
            int gx,
            int gy,
            int gz,
            int bx,
            int by,
            int bz,
            int shared,
            MemorySegment stream,
            MemorySegment params) {
        calls.add("launch");
        launches.add(new Launch(functions.get((int) ((f.address() - 0x20) / 0x10)), params));
    }

    @Override
    public MemorySegment createStream() {
        calls.add("createStream");
        return MemorySegment.ofAddress(0x30);
    }

    @Override
    public void synchronize(MemorySegment stream) {}

    @Override
    public void destroyStream(MemorySegment stream) {
        calls.add("destroyStream");
    }

    @Override
    public MemorySegment createEvent() {
        calls.add("createEvent");
        return MemorySegment.ofAddress(0x40);
    }

    @Override
    public void record(MemorySegment event, MemorySegment stream) {}

    @Override
    public void synchronizeEvent(MemorySegment event) {}

    @Override
    public float elapsedMillis(MemorySegment start, MemorySegment end) {
        return 0;
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        calls.add("destroyEvent");
    }

    @Override
    public void beginCapture(MemorySegment stream) {
        calls.add("beginCapture");
    }

    @Override
    public MemorySegment endCaptureAndInstantiate(MemorySegment stream) {
        calls.add("instantiate");
        return MemorySegment.ofAddress(0x50);
    }

    @Override
    public void launchGraph(MemorySegment exec, MemorySegment stream) {
        calls.add("launchGraph");
    }

    @Override
    public void destroyGraphExec(MemorySegment exec) {
        calls.add("destroyGraphExec");
    }

    @Override
    public void release() {
        calls.add("release");
    }

    public final FakeVirtualMemory vm = new FakeVirtualMemory(2L << 20, 64L << 20);

    @Override
    public GpuVirtualMemory virtualMemory() {
        return vm;
    }
}
