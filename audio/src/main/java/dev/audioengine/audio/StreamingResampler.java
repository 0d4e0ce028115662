package dev.audioengine.audio;

/**
 * {@link PolyphaseFilter} applied to a stream: input is pushed in blocks, output pulled as far as
 * the input allows, and the signal is taken as zero before its start and after {@link #finish()}.
 * Memory is one filter's width of history plus the latest block. Not thread-safe. Public for sources
 * that arrive as pushed blocks rather than as a file (the server's live transcription over WebSocket).
 */
public final class StreamingResampler {
    /** Whether the Vector API is there to use (it is an incubator module, resolved only when asked for). */
    private static final boolean VECTOR =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    /**
     * Outputs computed with the scalar inner product before the vector one takes over: until the
     * JIT has compiled it, Vector API code runs far slower than plain loops (docs/PERFORMANCE.md,
     * "One-shot jobs"), so clips shorter than about half a minute at 16 kHz never pay that, and
     * long ones get the vector speed after.
     */
    static final long SCALAR_OUTPUTS = 1 << 19;

    private final PolyphaseFilter filter;
    private final long scalarOutputs;
    private final int stepWhole, stepPhase; // M / L and M % L: how far each output moves the input position
    private final float[] scratch;
    private float[] buf;
    private long bufStart; // absolute input index of buf[0]
    private int bufLen;
    private long pushed;
    private boolean finished;
    private long total = -1; // output count, known once finished
    private long produced;
    private long base; // input sample at or before the next output
    private int phase; // the next output's position after base, in 1/L input samples

    /** A converter from {@code fromRate} to {@code toRate} (both positive, in Hz). */
    public StreamingResampler(int fromRate, int toRate) {
        this(fromRate, toRate, SCALAR_OUTPUTS);
    }

    /** {@code scalarOutputs}: how many outputs use the scalar inner product first (tests move the switch). */
    StreamingResampler(int fromRate, int toRate, long scalarOutputs) {
        this.scalarOutputs = scalarOutputs;
        filter = new PolyphaseFilter(fromRate, toRate);
        stepWhole = filter.down / filter.up;
        stepPhase = filter.down % filter.up;
        scratch = new float[filter.stride];
        bufLen = filter.halfWidth - 1; // the zeros before the start
        bufStart = -bufLen;
        buf = new float[Math.max(4096, 2 * filter.stride)];
    }

    long outputLength(long inputLength) {
        return filter.outputLength(inputLength);
    }

    /** Appends {@code len} input samples from {@code x[off]}; they are copied. */
    public void push(float[] x, int off, int len) {
        if (finished) throw new IllegalStateException("push after finish");
        append(len);
        System.arraycopy(x, off, buf, bufLen - len, len);
        pushed += len;
    }

    /** No more input: the remaining outputs see zeros past the end. */
    public void finish() {
        finished = true;
        total = filter.outputLength(pushed);
    }

    /** Up to {@code len} outputs into {@code out}; 0 when more input is needed, -1 once finished and drained. */
    public int pull(float[] out, int off, int len) {
        int stride = filter.stride, up = filter.up, halfWidth = filter.halfWidth;
        int n = 0;
        while (n < len) {
            if (finished && produced >= total) break;
            long first = base - halfWidth + 1;
            long need = first + stride - (bufStart + bufLen);
            if (need > 0) {
                if (!finished) break;
                append((int) need); // zeros after the end
            }
            float[] h = filter.row(phase, scratch);
            int hOff = filter.rowOffset(phase), xOff = (int) (first - bufStart);
            out[off + n++] = VECTOR && produced >= scalarOutputs
                    ? VectorDot.dot(h, hOff, buf, xOff, stride)
                    : scalarDot(h, hOff, buf, xOff, stride);
            produced++;
            base += stepWhole;
            phase += stepPhase;
            if (phase >= up) {
                phase -= up;
                base++;
            }
        }
        return n == 0 && finished && produced >= total ? -1 : n;
    }

    /** Makes room for {@code len} more samples at the end (zeroed), dropping history no output needs any more. */
    private void append(int len) {
        long keepFrom = Math.min(base - filter.halfWidth + 1, bufStart + bufLen);
        int drop = (int) (keepFrom - bufStart);
        if (bufLen + len > buf.length && drop > 0) {
            System.arraycopy(buf, drop, buf, 0, bufLen - drop);
            bufLen -= drop;
            bufStart += drop;
        }
        if (bufLen + len > buf.length) buf = java.util.Arrays.copyOf(buf, Math.max(2 * buf.length, bufLen + len));
        java.util.Arrays.fill(buf, bufLen, bufLen + len, 0f);
        bufLen += len;
    }

    /** The inner product without the Vector API (an embedder that does not resolve jdk.incubator.vector). */
    static float scalarDot(float[] h, int hOff, float[] x, int xOff, int n) {
        float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (int i = 0; i < n; i += 4) {
            a0 += h[hOff + i] * x[xOff + i];
            a1 += h[hOff + i + 1] * x[xOff + i + 1];
            a2 += h[hOff + i + 2] * x[xOff + i + 2];
            a3 += h[hOff + i + 3] * x[xOff + i + 3];
        }
        return (a0 + a1) + (a2 + a3);
    }
}
