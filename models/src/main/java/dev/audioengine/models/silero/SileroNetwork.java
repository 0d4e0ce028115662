package dev.audioengine.models.silero;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;

/**
 * Silero VAD v5/v6 on the engine's ops, for a batch of N consecutive windows (context + chunk
 * samples each). Everything before the LSTM works on all N windows at once; the LSTM runs them
 * in order as one sequence, which is exactly carrying the state from chunk to chunk.
 * <pre>
 * window [N,1,L] → reflect-pad right by context → STFT as a strided conv (kernel nFft, stride hop)
 *   [N,4,2F] → magnitude sqrt(re² + im²) [N,4,F] → 4 × (conv k3 pad 1 + ReLU) [N,1,128]
 *   → LSTM over N steps from (h0, c0) → ReLU → 1×1 conv (as matmul) → sigmoid → [N]
 * </pre>
 * Activations are time-major [N, T, C] and every convolution is an im2col made of views
 * (slices, one concat) followed by one GEMM whose rows are all N·T output frames: the batch of
 * windows becomes the GEMM's M dimension instead of N tiny convolutions.
 * <p>
 * Input: "window" [N,1,L]. Output: "out" [1, N], the N probabilities. The LSTM state is the
 * persistent tensor "lstm_state" [2, 1, 1, 128] (h, then c): the LSTM reads it as (h0, c0) and the
 * graph overwrites it with the state after the last window, so it stays on the device from run
 * to run, and graphs of every batch size N share it.
 */
final class SileroNetwork {
    static final String WINDOW = "window", STATE = "lstm_state", OUT = "out";
    /** The persistent LSTM state: h and c, each [1, 1, 128], stacked on the first axis. */
    static final Shape STATE_SHAPE = Shape.of(2, 1, 1, SileroWeights.HIDDEN);

    private SileroNetwork() {}

    static Graph build(SileroWeights w, int n) {
        GraphBuilder g = new GraphBuilder();
        int len = w.context + w.chunk;
        Tensor x = g.input(WINDOW, Shape.of(n, 1, len));
        Tensor state = g.state(STATE, STATE_SHAPE);
        Tensor h0 = g.reshape(g.slice(state, 0, 0, 1), 1, SileroWeights.HIDDEN);
        Tensor c0 = g.reshape(g.slice(state, 0, 1, 2), 1, SileroWeights.HIDDEN);

        // STFT: frames of nFft = 2·hop samples every hop, i.e. hop-sized blocks b and b+1 side by side
        Tensor padded = g.pad1d(x, PadMode.REFLECT, 0, w.context);
        long blocks = (len + w.context) / w.hop;
        if (w.nFft != 2 * w.hop || blocks * w.hop != len + w.context) {
            throw new IllegalStateException("STFT framing assumes nFft = 2·hop and whole blocks: nFft " + w.nFft
                    + ", hop " + w.hop + ", length " + (len + w.context));
        }
        Tensor b = g.reshape(padded, n, blocks, w.hop);
        Tensor frames = g.concat(2, g.slice(b, 1, 0, blocks - 1), g.slice(b, 1, 1, blocks)); // [N, 4, nFft]
        Tensor spec = g.matmul(frames, g.constant("stft.basis", w.basisMatrix)); // [N, 4, 2F]
        long bins = w.nFft / 2 + 1;
        Tensor re = g.slice(spec, 2, 0, bins), im = g.slice(spec, 2, bins, 2 * bins);
        Tensor h = g.sqrt(g.add(g.mul(re, re), g.mul(im, im))); // [N, 4, F]

        for (int i = 0; i < 4; i++) {
            h = g.relu(conv3(
                    g,
                    h,
                    w.encoderTaps[i],
                    g.constant("encoder." + i + ".w", w.encoderMatrix[i]),
                    g.constant("encoder." + i + ".b", w.encoderB[i])));
        }
        if (h.dim(1) != 1)
            throw new IllegalStateException("encoder left " + h.dim(1) + " frames per window, the model expects 1");
        Tensor seq = g.reshape(h, 1, n, SileroWeights.HIDDEN);
        Tensor lstm = g.lstm(
                seq,
                g.constant("lstm.w_ih", w.wIh),
                g.constant("lstm.w_hh", w.wHh),
                g.constant("lstm.b_ih", w.bIh),
                g.constant("lstm.b_hh", w.bHh),
                h0,
                c0); // [2, 1, N, 128]
        Tensor hidden = g.slice(lstm, 0, 0, 1); // [1, 1, N, 128]
        Tensor logit = g.add(
                g.matmul(g.relu(hidden), g.constant("decoder.w", w.decoderW)), g.constant("decoder.b", w.decoderB));
        Tensor prob = g.reshape(g.sigmoid(logit), 1, n).named(OUT);
        g.overwrite(state, g.slice(lstm, 2, n - 1, n)); // h then c after the last window
        return g.build(prob);
    }

    /**
     * Conv1d with kernel 3, padding 1 on time-major x [N, T, C]: the taps that see input (see
     * {@link EncoderTaps}) as strided views of the input, zero-padded only where a kept tap reads
     * padding, concatenated along channels, times weights [Cout, taps·C].
     */
    private static Tensor conv3(GraphBuilder g, Tensor x, EncoderTaps taps, Tensor weights, Tensor bias) {
        if (x.dim(1) != taps.inputFrames())
            throw new IllegalStateException("encoder expected " + taps.inputFrames() + " frames, got " + x.shape());
        int stride = taps.stride();
        long tOut = taps.outputFrames();
        Tensor src = taps.padded() ? g.pad(x, PadMode.ZERO, new long[] {0, 1, 0}, new long[] {0, 1, 0}, 0f) : x;
        int shift = taps.padded() ? 0 : -1; // tap k reads input frame t·stride + k - 1
        Tensor[] cols = new Tensor[taps.count()];
        for (int j = 0; j < cols.length; j++) {
            long start = taps.first() + j + shift;
            cols[j] = g.slice(src, 1, start, start + stride * (tOut - 1) + 1, stride);
        }
        Tensor im2col = cols.length == 1 ? cols[0] : g.concat(2, cols);
        return g.add(g.matmul(im2col, weights), bias);
    }
}
