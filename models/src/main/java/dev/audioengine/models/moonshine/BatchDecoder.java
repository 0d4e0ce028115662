package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.model.task.BatchStats;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * Continuous batching: windows from any number of threads decoded together, one step graph over every sequence in
 * flight. Each window takes the lowest free slot of the caches, is encoded into it (the windows that join between two
 * steps in one encoder run, {@link MoonshineNetwork#batchEncoder}), and then advances one token per step beside the
 * others; a sequence that ends (EOS, its token limit, a repetition loop) leaves its slot between two
 * steps and the next waiting window takes it. A step runs the smallest compiled width (1, 2, 4, ... slots) that covers
 * the highest slot in use, so a lone window's projections and feed-forward run on one row, not a full batch (its
 * attention still spans the slots, the empty ones at length 0: docs/PERFORMANCE.md measures what that costs).
 * <p>
 * A window that comes when the batch is idle may be decoded alone instead ({@link #tryLone}, MoonshineModel's session
 * path), so that a lone request pays nothing for the batch.
 * <p>
 * No thread of its own: the threads that submitted windows take turns driving (one at a time, the others wait), and
 * a driver whose own window is done hands over to a waiting one. A step's failure fails every window in flight, with
 * the same exception. The tokens of a window are the ones {@link DecodingSession#greedy} gives it alone, up to the
 * float rounding of a wider matrix product (the equality tests hold them equal on the Debian recordings).
 */
final class BatchDecoder implements AutoCloseable {
    private final AudioEngine engine;
    private final MoonshineWeights weights;
    private final DecoderCache cache;
    private final Map<Integer, StepGraph> steps = new HashMap<>();
    private final Map<EncoderKey, EncoderGraph> encoders = new LinkedHashMap<>(16, 0.75f, true);
    private final Window[] bySlot;
    private final ArrayDeque<Window> pending = new ArrayDeque<>();
    private boolean driving, closed, lone;
    private long stepCount, sequenceSteps, windows, loneWindows, encoderRuns;
    // nanoseconds per stage (BatchStats.Stages); written by the driver, or by a lone window's thread under this lock
    private long compileNanos, encodeNanos, stepNanos, lockWaitNanos, loneNanos;
    private long encoderBytes; // the arenas of the encoders kept
    private final long encoderBytesKept;
    private int active;

    /**
     * Windows encoded in one run at most: a run's memory grows with it (the encoder's attention scores are
     * windows × heads × frames², 64 MB for 16 windows of 10 s), and the windows that join together wait for it.
     */
    static final int ENCODE_BATCH = 16;

    /** Windows encoded together are padded to a multiple of this many samples (1 s): few compiled encoder sizes. */
    static final int ENCODE_BUCKET = 16_000;

    /**
     * Encoder graphs kept at most, least recently used out (each is compiled for one batch size and padded length).
     * A server meets about five batch sizes times as many 1 s lengths as its windows span; with 16 kept, a warm server
     * under 64 clients, after a first round of the same load, still spent 0.10-0.15 s of a 0.9-1.2 s load compiling
     * encoders (sizes evicted or first met; H100, docs/PERFORMANCE.md). {@link #ENCODERS_KEPT_BYTES} bounds their
     * memory instead.
     */
    static final int ENCODERS_KEPT = 128;

    /**
     * Activation memory of the encoder graphs kept (their arenas on the device, as {@link dev.audioengine.api.exec.RunSummary#arenaBytes}
     * reports them), least recently used out past it: the small sizes cost little and most sizes are small; the
     * largest (16 windows of 10 s: moonshine-tiny's attention scores alone are 64 MB) always fits, alone if need be.
     */
    static final long ENCODERS_KEPT_BYTES = 1L << 30;

    /** A compiled batched encoder's size: windows per run and samples per window. */
    private record EncoderKey(int windows, int samples) {}

    /**
     * A batched encoder compiled for one size, with the host tensors of its inputs and its output (FRAME_LENGTH back),
     * reused run after run: allocating them (zero-filled native memory, 10 MB of audio for 16 windows of 10 s) on
     * every run was host time the decoder steps waited for.
     */
    private record EncoderGraph(
            CompiledGraph graph,
            HostTensor audio,
            HostTensor stem,
            HostTensor frames,
            HostTensor[] slots,
            Map<String, HostTensor> inputs,
            HostTensor out,
            long bytes)
            implements AutoCloseable {
        static EncoderGraph of(CompiledGraph graph, int windows, int samples) {
            Map<String, HostTensor> inputs = new HashMap<>();
            HostTensor[] slots = new HostTensor[windows];
            HostTensor audio = null, stem = null, frames = null, out = null;
            try {
                audio = put(
                        inputs, MoonshineNetwork.AUDIO, HostTensor.allocate(DType.F32, Shape.of(windows, 1, samples)));
                stem = put(inputs, MoonshineNetwork.STEM_LENGTH, HostTensor.allocate(DType.I32, Shape.of(windows)));
                frames = put(inputs, MoonshineNetwork.FRAME_LENGTH, HostTensor.allocate(DType.I32, Shape.of(windows)));
                for (int i = 0; i < windows; i++)
                    slots[i] = put(inputs, MoonshineNetwork.SLOT + i, HostTensor.allocate(DType.I32, Shape.of(1)));
                out = HostTensor.allocate(DType.I32, Shape.of(windows));
            } catch (RuntimeException e) {
                inputs.values().forEach(HostTensor::close);
                graph.close();
                throw e;
            }
            long bytes = graph.summary().arenaBytes().values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            return new EncoderGraph(graph, audio, stem, frames, slots, Map.copyOf(inputs), out, bytes);
        }

        private static HostTensor put(Map<String, HostTensor> inputs, String name, HostTensor t) {
            inputs.put(name, t);
            return t;
        }

        @Override
        public void close() {
            graph.close();
            inputs.values().forEach(HostTensor::close);
            out.close();
        }
    }

    /** One window's decoding: its audio until encoded, then its position, tokens and limit. */
    private static final class Window {
        final float[] samples;
        final int from, length, limit;
        final List<Integer> tokens = new ArrayList<>();
        int frames, position, current = MoonshineConfig.BOS;
        volatile boolean done, cancelled;
        RuntimeException failure;

        Window(float[] samples, int from, int length, int limit) {
            this.samples = samples;
            this.from = from;
            this.length = length;
            this.limit = limit;
        }
    }

    /** A step graph compiled for one width, and the host tensors it reads and writes. */
    private record StepGraph(
            CompiledGraph graph,
            HostTensor token,
            HostTensor position,
            HostTensor selfLength,
            HostTensor crossLength,
            HostTensor writeAt,
            HostTensor next,
            Map<String, HostTensor> inputs)
            implements AutoCloseable {
        @Override
        public void close() {
            graph.close();
            for (HostTensor t : new HostTensor[] {token, position, selfLength, crossLength, writeAt, next})
                if (t != null) t.close();
        }
    }

    BatchDecoder(AudioEngine engine, MoonshineWeights weights, int slots, int selfCapacity, int crossCapacity) {
        this(engine, weights, slots, selfCapacity, crossCapacity, ENCODERS_KEPT_BYTES);
    }

    /** As above, keeping compiled encoders up to {@code encoderBytes} of arenas (tests evict with a small one). */
    BatchDecoder(
            AudioEngine engine,
            MoonshineWeights weights,
            int slots,
            int selfCapacity,
            int crossCapacity,
            long encoderBytes) {
        this.encoderBytesKept = encoderBytes;
        this.engine = engine;
        this.weights = weights;
        this.cache = new DecoderCache(engine, weights.config(), slots, selfCapacity, crossCapacity);
        this.bySlot = new Window[slots];
    }

    int slots() {
        return bySlot.length;
    }

    /** Compiled encoders kept now, and the bytes of their arenas: {count, bytes}. */
    long[] encodersKept() {
        synchronized (engine) {
            return new long[] {encoders.size(), encoderBytes};
        }
    }

    /**
     * Claims the turn of a window decoded alone, outside the batch, when nothing is in flight or waiting and no other
     * window holds that turn; {@link #endLone} gives it back. A lone request then costs what it did before batching
     * (a step over all slots attends over every slot's cache, which made a lone request 60 % slower on an H100:
     * docs/PERFORMANCE.md); windows that come while it decodes join the batch as usual.
     */
    synchronized boolean tryLone() {
        // active is written by the driver, which hands over under this lock: with no driver, its last value is seen
        if (closed || lone || driving || active > 0 || !pending.isEmpty()) return false;
        lone = true;
        windows++; // no driver now, and one can start only after this lock: no update of the count is lost
        return true;
    }

    /** Gives back the turn {@link #tryLone} claimed, counting the lone window and the nanoseconds it took. */
    synchronized void endLone(long nanos) {
        lone = false;
        loneWindows++;
        loneNanos += nanos;
    }

    /**
     * Decodes {@code samples[from, from + length)} greedily beside whatever else is in flight: at most
     * {@code maxTokens} tokens (and the cache's capacity), stopped at EOS or a repetition loop. Blocks until done.
     */
    List<Integer> decode(float[] samples, int from, int length, int maxTokens) {
        if (MoonshineConfig.frames(length) > cache.crossCapacity)
            throw new IllegalArgumentException(length + " samples exceed this batch's windows of "
                    + MoonshineConfig.maxSamples(cache.crossCapacity));
        Window w = new Window(samples, from, length, Math.min(maxTokens, cache.selfCapacity));
        synchronized (this) {
            if (closed) throw new IllegalStateException("the Moonshine model is closed");
            pending.add(w);
        }
        while (true) {
            synchronized (this) {
                try {
                    while (!w.done && driving) wait();
                } catch (InterruptedException e) {
                    w.cancelled = true; // the driver frees its slot, or skips it in the queue
                    Thread.currentThread().interrupt();
                    throw new CancellationException("interrupted while its window was being decoded");
                }
                if (w.done) {
                    if (w.failure != null) throw w.failure;
                    return w.tokens;
                }
                driving = true;
            }
            try {
                drive(w);
            } catch (RuntimeException e) {
                failAll(e);
            } finally {
                synchronized (this) {
                    driving = false;
                    notifyAll();
                }
            }
        }
    }

    /** Admits waiting windows into free slots and runs steps, until {@code mine} is done or nothing is in flight. */
    private void drive(Window mine) {
        while (!mine.done) {
            admit();
            int width = width();
            if (width == 0) return;
            step(width);
        }
    }

    private void admit() {
        List<Integer> joined = new ArrayList<>();
        for (int slot = 0; slot < bySlot.length; slot++) {
            if (bySlot[slot] != null) continue;
            Window w;
            synchronized (this) {
                do w = pending.poll();
                while (w != null && w.cancelled);
            }
            if (w == null) break;
            bySlot[slot] = w; // before encoding, so that a failure there fails it with the rest
            active++;
            windows++;
            joined.add(slot);
        }
        // longest first, so that each run pads its windows to about their own length
        joined.sort((a, b) -> Integer.compare(bySlot[b].length, bySlot[a].length));
        for (int i = 0; i < joined.size(); i += ENCODE_BATCH)
            encode(joined.subList(i, Math.min(joined.size(), i + ENCODE_BATCH)));
    }

    /** The step width that covers the highest slot in use: a power of two, or all slots; 0 when none is in use. */
    private int width() {
        int highest = bySlot.length - 1;
        while (highest >= 0 && bySlot[highest] == null) highest--;
        return highest < 0 ? 0 : Math.min(bySlot.length, ceilPowerOfTwo(highest + 1));
    }

    static int ceilPowerOfTwo(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    /**
     * Encodes the windows that just took {@code slots} in one run: padded to the longest one's length rounded up to
     * {@link #ENCODE_BUCKET} samples, their count rounded up to a power of two, so that a few compiled encoders serve
     * every window length and batch ({@link MoonshineNetwork#batchEncoder} says why padding does not change a window).
     */
    private void encode(List<Integer> slots) {
        int longest = bySlot[slots.get(0)].length;
        int samples = Math.min(
                (longest + ENCODE_BUCKET - 1) / ENCODE_BUCKET * ENCODE_BUCKET,
                MoonshineConfig.maxSamples(cache.crossCapacity));
        int count = ceilPowerOfTwo(slots.size());
        long asked = System.nanoTime();
        synchronized (engine) {
            long got = System.nanoTime();
            lockWaitNanos += got - asked;
            EncoderKey key = new EncoderKey(count, samples);
            EncoderGraph enc = encoders.get(key);
            if (enc == null) {
                enc = EncoderGraph.of(
                        engine.compile(
                                MoonshineNetwork.batchEncoder(
                                        weights.config(),
                                        weights.encoder,
                                        weights.decoder,
                                        count,
                                        samples,
                                        bySlot.length,
                                        cache.crossCapacity,
                                        false),
                                cache.cross()),
                        count,
                        samples);
                encoders.put(key, enc);
                encoderBytes += enc.bytes;
                while (encoders.size() > 1 && (encoders.size() > ENCODERS_KEPT || encoderBytes > encoderBytesKept)) {
                    var eldest = encoders.entrySet().iterator().next();
                    eldest.getValue().close();
                    encoderBytes -= eldest.getValue().bytes;
                    encoders.remove(eldest.getKey());
                }
                compileNanos += System.nanoTime() - got;
            }
            MemorySegment audio = enc.audio.data();
            for (int i = 0; i < count; i++) {
                // rounding the batch up: silent windows of the whole length, written to the first one's slot first
                Window w = i < slots.size() ? bySlot[slots.get(i)] : null;
                int length = w == null ? 0 : w.length;
                long at = 4L * i * samples;
                if (w != null) MemorySegment.copy(w.samples, w.from, audio, ValueLayout.JAVA_FLOAT, at, length);
                audio.asSlice(at + 4L * length, 4L * (samples - length)).fill((byte) 0); // what an earlier run left
                int frameOf = w == null ? samples : length;
                enc.stem.data().set(ValueLayout.JAVA_INT, 4L * i, (int) MoonshineNetwork.stemFrames(frameOf));
                enc.frames.data().set(ValueLayout.JAVA_INT, 4L * i, (int) MoonshineConfig.frames(frameOf));
                enc.slots[i].data().set(ValueLayout.JAVA_INT, 0, w == null ? slots.get(0) : slots.get(i));
            }
            enc.graph.runInto(enc.inputs, List.of(enc.out));
            encoderRuns++;
            encodeNanos += System.nanoTime() - got;
        }
        for (int slot : slots) bySlot[slot].frames = Math.toIntExact(MoonshineConfig.frames(bySlot[slot].length));
    }

    private void step(int width) {
        StepGraph s = steps.get(width);
        if (s == null) {
            synchronized (engine) {
                s = compile(width);
            }
            steps.put(width, s);
        }
        int running = 0;
        for (int i = 0; i < width; i++) {
            Window w = bySlot[i];
            if (w != null && w.cancelled) {
                release(i);
                w = null;
            }
            // an empty slot inside the width runs a dummy sequence at position 0 with nothing visible; its write at
            // position 0 is overwritten by the first step of the next window that takes the slot, before it is read
            boolean live = w != null;
            running += live ? 1 : 0;
            s.token.data().set(ValueLayout.JAVA_INT, 4L * i, live ? w.current : MoonshineConfig.BOS);
            s.position.data().set(ValueLayout.JAVA_INT, 4L * i, live ? w.position : 0);
            s.selfLength.data().set(ValueLayout.JAVA_INT, 4L * i, live ? w.position + 1 : 0);
            s.crossLength.data().set(ValueLayout.JAVA_INT, 4L * i, live ? w.frames : 0);
            if (s.writeAt != null) s.writeAt.data().set(ValueLayout.JAVA_INT, 4L * i, live ? w.position : 0);
        }
        if (running == 0) return;
        long asked = System.nanoTime();
        synchronized (engine) {
            long got = System.nanoTime();
            s.graph.runInto(s.inputs, List.of(s.next));
            lockWaitNanos += got - asked;
            stepNanos += System.nanoTime() - got;
        }
        stepCount++;
        sequenceSteps += running;
        for (int i = 0; i < width; i++) {
            Window w = bySlot[i];
            if (w == null) continue;
            int t = s.next.getInt(i);
            boolean end = t == MoonshineConfig.EOS;
            if (!end) {
                w.tokens.add(t);
                int cut = RepetitionGuard.loopCut(w.tokens);
                if (cut >= 0) {
                    w.tokens.subList(cut, w.tokens.size()).clear();
                    end = true;
                }
            }
            w.current = t;
            w.position++;
            if (end || w.position >= w.limit) finish(i);
        }
    }

    private StepGraph compile(int width) {
        int slots = bySlot.length;
        CompiledGraph graph = engine.compile(
                MoonshineNetwork.step(
                        weights.config(),
                        weights.decoder,
                        slots,
                        width,
                        cache.selfCapacity,
                        cache.crossCapacity,
                        false),
                cache.all());
        HostTensor token = HostTensor.allocate(DType.I32, Shape.of(width, 1)),
                position = HostTensor.allocate(DType.I32, Shape.of(width)),
                selfLength = HostTensor.allocate(DType.I32, Shape.of(slots)), // 0 past the width: nothing visible
                crossLength = HostTensor.allocate(DType.I32, Shape.of(slots)),
                next = HostTensor.allocate(DType.I32, Shape.of(width, 1)),
                writeAt = null;
        Map<String, HostTensor> inputs = new HashMap<>(Map.of(
                MoonshineNetwork.TOKEN, token,
                MoonshineNetwork.POSITION, position,
                MoonshineNetwork.SELF_LENGTH, selfLength,
                MoonshineNetwork.CROSS_LENGTH, crossLength));
        if (width < slots) {
            writeAt = HostTensor.allocate(DType.I32, Shape.of(slots));
            for (int i = width; i < slots; i++) writeAt.data().set(ValueLayout.JAVA_INT, 4L * i, -1);
            inputs.put(MoonshineNetwork.WRITE_AT, writeAt);
        }
        return new StepGraph(graph, token, position, selfLength, crossLength, writeAt, next, Map.copyOf(inputs));
    }

    private void finish(int slot) {
        Window w = bySlot[slot];
        release(slot);
        synchronized (this) {
            w.done = true;
            notifyAll();
        }
    }

    private void release(int slot) {
        bySlot[slot] = null;
        active--;
    }

    /** A failed step or encode: every window in flight or waiting fails with it; the slots are free again. */
    private void failAll(RuntimeException e) {
        synchronized (this) {
            for (int i = 0; i < bySlot.length; i++) {
                if (bySlot[i] != null) {
                    bySlot[i].failure = e;
                    bySlot[i].done = true;
                    bySlot[i] = null;
                }
            }
            active = 0;
            for (Window w : pending) {
                w.failure = e;
                w.done = true;
            }
            pending.clear();
            notifyAll();
        }
    }

    /** What this batch has done so far, and what it holds now. */
    synchronized BatchStats stats() {
        return new BatchStats(
                bySlot.length,
                active,
                pending.size(),
                stepCount,
                sequenceSteps,
                windows,
                loneWindows,
                encoderRuns,
                new BatchStats.Stages(
                        compileNanos / 1e9, encodeNanos / 1e9, stepNanos / 1e9, lockWaitNanos / 1e9, loneNanos / 1e9));
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        synchronized (engine) {
            steps.values().forEach(StepGraph::close);
            steps.clear();
            encoders.values().forEach(EncoderGraph::close);
            encoders.clear();
            encoderBytes = 0;
            cache.close();
        }
    }
}
