package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.PersistentTensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.model.task.BatchStats;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whisper's decoder shared by concurrent callers (a server's requests, a folder of files): each caller leases a slot
 * of the batch's caches ([slots, H, ·, hd], {@link WhisperNetwork#cacheShape(WhisperConfig, int, int)}) and decodes
 * through it as through a session of its own ({@link Slot} is a {@link WhisperSteps}); the steps of the slots waiting
 * at one moment run as one step graph over all of them ({@link WhisperNetwork#step} over slots), so that on a GPU 64
 * sequences a step cost little more than one. Whisper's rules (suppressions, timestamps, fallback, seeking) stay on
 * each caller's thread, in the same loops as alone: a recording's windows follow one another (each window's start
 * depends on the last one's timestamps), so what shares the steps is concurrent recordings, not one recording's
 * windows.
 * <p>
 * No thread of its own. A slot's step waits until every leased slot that is stepping has asked for its step too (or
 * {@link #GATHER_NANOS} has passed since the first asked: a caller still picking its token joins the next step), and
 * the waiting caller that finds no step running drives one for all of them. A slot that is encoding its window or
 * running a pass of several decoders is away: no step waits for it. Each caller copies its own row of the logits
 * (205 KB a sequence for 51,865 tokens), in parallel; the next step waits until they are all copied.
 * <p>
 * Several decoders (beam search, best-of sampling at a fallback temperature) run alone, on the batch's one
 * {@link WhisperSession}, one caller at a time: the window is encoded there again and the prompt fed again. A step of
 * a slot gives the logits the session would give alone up to the float rounding of a wider product; the tests hold the
 * tokens equal.
 */
final class WhisperBatch implements AutoCloseable {
    /** How long a step waits for leased slots still picking their token before it runs without them. */
    static final long GATHER_NANOS = 2_000_000;

    private final AudioEngine engine;
    private final WhisperWeights weights;
    private final WhisperConfig c;
    private final List<PersistentTensor> caches = new ArrayList<>();
    private final CompiledGraph encoder;
    private final HostTensor audio, slotInput, slotOutput;
    private final Map<String, HostTensor> encoderInputs;
    private final Map<Integer, StepGraph> steps = new HashMap<>();
    private WhisperSession lone; // made on the first pass of several decoders, under loneTurn
    private final ReentrantLock loneTurn = new ReentrantLock();

    // under this object's monitor
    private final boolean[] leased, away, waiting, done;
    private final int[] tokens, positions;
    private final HostTensor[] rowsOf; // the logits tensor a slot's finished step left its row in
    private final RuntimeException[] failure;
    private int leasedCount, awayCount, waitingCount, unread, queued;
    private long firstWait;
    private boolean driving, closed;
    private long stepCount, sequenceSteps, windows, loneCalls, severalDecoderPasses;
    private long encodeNanos, stepNanos, lockWaitNanos, loneNanos, compileNanos;

    /** A step graph compiled for one width, with the host tensors it reads and writes. */
    private record StepGraph(CompiledGraph graph, Map<String, HostTensor> inputs, HostTensor logits)
            implements AutoCloseable {
        HostTensor input(String name) {
            return inputs.get(name);
        }

        @Override
        public void close() {
            graph.close();
            inputs.values().forEach(HostTensor::close);
            logits.close();
        }
    }

    WhisperBatch(AudioEngine engine, WhisperWeights weights, int slots) {
        if (slots < 2) throw new IllegalArgumentException("a batch of " + slots + " slots: use a session");
        this.engine = engine;
        this.weights = weights;
        this.c = weights.config;
        leased = new boolean[slots];
        away = new boolean[slots];
        waiting = new boolean[slots];
        done = new boolean[slots];
        tokens = new int[slots];
        positions = new int[slots];
        rowsOf = new HostTensor[slots];
        failure = new RuntimeException[slots];
        CompiledGraph enc = null;
        List<HostTensor> made = new ArrayList<>();
        try {
            for (int l = 0; l < c.textLayers(); l++)
                for (String kind : List.of("self_k", "self_v", "cross_k", "cross_v"))
                    caches.add(engine.state(
                            WhisperNetwork.cacheName(kind, l),
                            DType.F32,
                            WhisperNetwork.cacheShape(c, slots, kind.startsWith("self") ? c.textCtx() : c.audioCtx())));
            PersistentTensor[] cross =
                    caches.stream().filter(t -> t.name().contains(".cross_")).toArray(PersistentTensor[]::new);
            enc = engine.compile(WhisperNetwork.slotEncoder(c, weights.encoder, slots), cross);
            made.add(HostTensor.allocate(DType.F32, Shape.of(1, WhisperNetwork.WINDOW_SAMPLES)));
            made.add(HostTensor.allocate(DType.I32, Shape.of(1)));
            made.add(HostTensor.allocate(DType.I32, Shape.of(1)));
        } catch (RuntimeException | Error e) {
            if (enc != null) enc.close();
            made.forEach(HostTensor::close);
            caches.forEach(PersistentTensor::close);
            throw e;
        }
        encoder = enc;
        audio = made.get(0);
        slotInput = made.get(1);
        slotOutput = made.get(2);
        encoderInputs = Map.of(WhisperNetwork.AUDIO, audio, WhisperNetwork.SLOT, slotInput);
    }

    /** Device bytes of one slot's caches: what each more sequence in a batch costs. */
    static long bytesPerSlot(WhisperConfig c) {
        return 2L * c.textLayers() * c.textState() * (c.textCtx() + c.audioCtx()) * 4;
    }

    /**
     * The lowest free slot, waiting for one when all are leased; the caller closes it when its decoding is done.
     *
     * @throws CancellationException when interrupted while waiting
     */
    synchronized Slot lease() {
        queued++;
        try {
            while (!closed && leasedCount == leased.length) wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for a slot of the Whisper batch");
        } finally {
            queued--;
        }
        if (closed) throw new IllegalStateException("the Whisper model is closed");
        int i = 0;
        while (leased[i]) i++;
        leased[i] = true;
        failure[i] = null;
        leasedCount++;
        return new Slot(i);
    }

    /** One caller's sequence in the batch: its slot of the caches, and the window it last encoded there. */
    final class Slot implements WhisperSteps, AutoCloseable {
        private final int index;
        private float[] samples;
        private int from, length;
        private boolean closedSlot;

        private Slot(int index) {
            this.index = index;
        }

        @Override
        public void encode(float[] samples, int from, int length) {
            if (length > WhisperNetwork.WINDOW_SAMPLES)
                throw new IllegalArgumentException("a Whisper window holds at most 30 s ("
                        + WhisperNetwork.WINDOW_SAMPLES + " samples), not " + length);
            setAway(index, true);
            try {
                long asked = System.nanoTime();
                synchronized (engine.runLock(WhisperBatch.this)) {
                    long got = System.nanoTime();
                    MemorySegment a = audio.data();
                    MemorySegment.copy(samples, from, a, ValueLayout.JAVA_FLOAT, 0, length);
                    a.asSlice(4L * length).fill((byte) 0); // what the last window left past this one's end
                    slotInput.data().set(ValueLayout.JAVA_INT, 0, index);
                    encoder.runInto(encoderInputs, List.of(slotOutput));
                    synchronized (WhisperBatch.this) {
                        lockWaitNanos += got - asked;
                        encodeNanos += System.nanoTime() - got;
                        windows++;
                    }
                }
            } finally {
                setAway(index, false);
            }
            this.samples = samples;
            this.from = from;
            this.length = length;
        }

        @Override
        public float[] step(int token, int position) {
            if (position >= c.textCtx())
                throw new IllegalArgumentException("position " + position + " is past the decoder's " + c.textCtx());
            return WhisperBatch.this.step(index, token, position);
        }

        /**
         * Several decoders run alone on the batch's session (one caller at a time): the window encoded there again
         * and {@code fed} fed again, then the session's own decoders; the slot is away meanwhile.
         */
        @Override
        public Decoders decoders(int n, int[] fed) {
            if (samples == null) throw new IllegalStateException("no window encoded in this slot");
            setAway(index, true);
            long start = System.nanoTime();
            loneTurn.lock();
            Decoders d;
            try {
                if (lone == null) {
                    synchronized (engine) {
                        lone = new WhisperSession(engine, weights);
                    }
                }
                lone.encode(samples, from, length);
                for (int i = 0; i < fed.length; i++) lone.step(fed[i], i);
                d = lone.decoders(n, fed);
            } catch (RuntimeException | Error e) {
                endLone(start);
                throw e;
            }
            return new Decoders() {
                @Override
                public float[] step(int beam, int token, int position) {
                    return d.step(beam, token, position);
                }

                @Override
                public void fork(int[] from) {
                    d.fork(from);
                }

                @Override
                public void close() {
                    try {
                        d.close();
                    } finally {
                        endLone(start);
                    }
                }
            };
        }

        private void endLone(long start) {
            loneTurn.unlock();
            synchronized (WhisperBatch.this) {
                severalDecoderPasses++;
                loneNanos += System.nanoTime() - start;
            }
            setAway(index, false);
        }

        /** Gives the slot back for the next caller. */
        @Override
        public void close() {
            synchronized (WhisperBatch.this) {
                if (closedSlot) return;
                closedSlot = true;
                leased[index] = false;
                leasedCount--;
                WhisperBatch.this.notifyAll();
            }
        }
    }

    private synchronized void setAway(int slot, boolean on) {
        if (away[slot] == on) return;
        away[slot] = on;
        awayCount += on ? 1 : -1;
        notifyAll(); // a step waiting for this slot need not any more
    }

    /**
     * Slot {@code slot}'s step: joins the next step of the batch (driving it when no other caller does). A slot is
     * waiting (asked, not yet taken into a step), then in a step, then done (its row ready to copy).
     */
    private float[] step(int slot, int token, int position) {
        boolean interrupted = false;
        synchronized (this) {
            if (closed) throw new IllegalStateException("the Whisper model is closed");
            tokens[slot] = token;
            positions[slot] = position;
            waiting[slot] = true;
            if (waitingCount++ == 0) firstWait = System.nanoTime();
            notifyAll();
        }
        while (true) {
            synchronized (this) {
                boolean drive = false;
                while (!done[slot] && failure[slot] == null) {
                    if (waiting[slot] && (closed || interrupted)) { // not yet in a step: it can leave
                        waiting[slot] = false;
                        waitingCount--;
                        notifyAll();
                        if (closed) throw new IllegalStateException("the Whisper model is closed");
                        Thread.currentThread().interrupt();
                        throw new CancellationException("interrupted while its Whisper step was waiting");
                    }
                    long waited = System.nanoTime() - firstWait;
                    if (!driving
                            && waiting[slot]
                            && (waitingCount >= leasedCount - awayCount || waited >= GATHER_NANOS)) {
                        driving = drive = true;
                        break;
                    }
                    long left = driving || !waiting[slot] ? 0 : GATHER_NANOS - waited;
                    try {
                        // in a step, it waits for the step's end whatever happens: its row must be taken
                        if (left > 0) wait(left / 1_000_000, (int) (left % 1_000_000));
                        else wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (!drive) break;
            }
            runStep();
        }
        synchronized (this) {
            if (failure[slot] != null) {
                RuntimeException f = failure[slot];
                failure[slot] = null;
                if (interrupted) Thread.currentThread().interrupt();
                throw f;
            }
            done[slot] = false;
        }
        // this caller's row, copied on its own thread while the others copy theirs
        float[] out = null;
        if (!interrupted) {
            int v = c.vocabulary();
            out = new float[v];
            MemorySegment.copy(rowsOf[slot].data(), ValueLayout.JAVA_FLOAT, 4L * slot * v, out, 0, v);
        }
        synchronized (this) {
            rowsOf[slot] = null;
            if (--unread == 0) notifyAll();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted during its Whisper step");
        }
        return out;
    }

    /**
     * Runs one step over every slot waiting now (the driver's turn: {@code driving} is set, and cleared here). A
     * failure fails the step's sequences, each of whose callers throws it.
     */
    private void runStep() {
        int width, highest = -1, running = 0;
        boolean[] stepping = new boolean[leased.length];
        StepGraph s;
        try {
            synchronized (this) {
                // the last step's rows are still being copied out of their tensor (uninterruptibly: each copy is
                // a memcpy on a running thread)
                boolean interrupted = false;
                while (unread > 0) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) Thread.currentThread().interrupt();
                for (int i = 0; i < waiting.length; i++) {
                    if (!waiting[i]) continue;
                    stepping[i] = true;
                    waiting[i] = false;
                    highest = i;
                    running++;
                }
                waitingCount = 0;
                // the smallest compiled width (1, 2, 4, ... slots) covering the highest slot stepping: few graphs,
                // and a few sequences in low slots run their products on few rows
                width = highest < 1 ? 1 : Math.min(leased.length, Integer.highestOneBit(highest) << 1);
                s = steps.get(width);
            }
            if (running == 0) return;
            if (s == null) {
                long t0 = System.nanoTime();
                synchronized (engine) {
                    s = compile(width);
                }
                synchronized (this) {
                    steps.put(width, s);
                    compileNanos += System.nanoTime() - t0;
                }
            }
            int slots = leased.length;
            for (int i = 0; i < slots; i++) {
                boolean on = stepping[i];
                if (i < width) {
                    s.input(WhisperNetwork.TOKEN).data().set(ValueLayout.JAVA_INT, 4L * i, on ? tokens[i] : 0);
                    s.input(WhisperNetwork.POSITION).data().set(ValueLayout.JAVA_INT, 4L * i, on ? positions[i] : 0);
                }
                s.input(WhisperNetwork.WRITE_AT).data().set(ValueLayout.JAVA_INT, 4L * i, on ? positions[i] : -1);
                s.input(WhisperNetwork.SELF_LENGTH).data().set(ValueLayout.JAVA_INT, 4L * i, on ? positions[i] + 1 : 0);
                s.input(WhisperNetwork.CROSS_LENGTH).data().set(ValueLayout.JAVA_INT, 4L * i, on ? c.audioCtx() : 0);
            }
            long asked = System.nanoTime(), got;
            synchronized (engine.runLock(this)) {
                got = System.nanoTime();
                s.graph.runInto(s.inputs, List.of(s.logits));
            }
            synchronized (this) {
                lockWaitNanos += got - asked;
                stepNanos += System.nanoTime() - got;
                stepCount++;
                sequenceSteps += running;
                for (int i = 0; i < slots; i++) {
                    if (!stepping[i]) continue;
                    rowsOf[i] = s.logits;
                    done[i] = true;
                    unread++;
                }
            }
        } catch (RuntimeException | Error e) {
            RuntimeException f = e instanceof RuntimeException r ? r : new IllegalStateException(e);
            synchronized (this) {
                for (int i = 0; i < stepping.length; i++) if (stepping[i] && !done[i]) failure[i] = f;
            }
            if (e instanceof Error err) throw err;
        } finally {
            synchronized (this) {
                driving = false;
                notifyAll();
            }
        }
    }

    private StepGraph compile(int width) {
        int slots = leased.length;
        CompiledGraph graph = engine.compile(
                WhisperNetwork.step(c, weights.decoder, slots, width, c.textCtx(), null),
                caches.toArray(PersistentTensor[]::new));
        Map<String, HostTensor> inputs = new HashMap<>();
        inputs.put(WhisperNetwork.TOKEN, HostTensor.allocate(DType.I32, Shape.of(width, 1)));
        inputs.put(WhisperNetwork.POSITION, HostTensor.allocate(DType.I32, Shape.of(width)));
        for (String name : List.of(WhisperNetwork.WRITE_AT, WhisperNetwork.SELF_LENGTH, WhisperNetwork.CROSS_LENGTH))
            inputs.put(name, HostTensor.allocate(DType.I32, Shape.of(slots)));
        return new StepGraph(
                graph, Map.copyOf(inputs), HostTensor.allocate(DType.F32, Shape.of(width, 1, c.vocabulary())));
    }

    /**
     * Whether no caller holds or waits for a slot: a call that finds the batch so may decode alone on the model's own
     * session (with the step ahead, and no step over the batch's empty slots), as without batching.
     */
    synchronized boolean idle() {
        return leasedCount == 0 && queued == 0 && !closed;
    }

    /**
     * Counts a call decoded alone outside the batch ({@link #idle}) and the nanoseconds it took: one window in the
     * figures, whatever windows its recording had (they were never the batch's).
     */
    synchronized void countLone(long nanos) {
        windows++;
        loneCalls++;
        loneNanos += nanos;
    }

    /** Passes of several decoders run alone on the batch's session (for tests). */
    synchronized long severalDecoderPasses() {
        return severalDecoderPasses;
    }

    /**
     * What this batch has done so far, and what it holds now: windows are those encoded into slots (one encoder run
     * each) and the calls decoded alone ({@link #countLone}); the lone stage's time also holds the passes of several
     * decoders run on the batch's session.
     */
    synchronized BatchStats stats() {
        return new BatchStats(
                leased.length,
                leasedCount,
                queued,
                stepCount,
                sequenceSteps,
                windows,
                loneCalls,
                windows - loneCalls,
                new BatchStats.Stages(
                        compileNanos / 1e9, encodeNanos / 1e9, stepNanos / 1e9, lockWaitNanos / 1e9, loneNanos / 1e9));
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
            notifyAll();
        }
        synchronized (engine) {
            steps.values().forEach(StepGraph::close);
            steps.clear();
            encoder.close();
            for (HostTensor t : List.of(audio, slotInput, slotOutput)) t.close();
            if (lone != null) lone.close();
            caches.forEach(PersistentTensor::close);
        }
    }
}
