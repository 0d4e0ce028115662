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
 * window [N,1,L] → reflect-pad right by context → conv1d(STFT basis, stride hop) [N,2F,4]
 *   → magnitude sqrt(re² + im²) [N,F,4] → 4 × (conv1d k3 + ReLU) [N,128,1]
 *   → LSTM over N steps from (h0, c0) → ReLU → 1×1 conv (as matmul) → sigmoid → [N]
 * </pre>
 * Inputs: "window" [N,1,L], "h0" and "c0" [1,128]. Outputs: "prob" [1,1,N,1] and "state"
 * [2,1,1,128] (h and c after the last window).
 */
final class SileroGraph {
    static final String WINDOW = "window", H0 = "h0", C0 = "c0", PROB = "prob", STATE = "state";

    private SileroGraph() {}

    static Graph build(SileroWeights w, int n) {
        GraphBuilder g = new GraphBuilder();
        int len = w.context + w.chunk;
        Tensor x = g.input(WINDOW, Shape.of(n, 1, len));
        Tensor h0 = g.input(H0, Shape.of(1, SileroWeights.HIDDEN));
        Tensor c0 = g.input(C0, Shape.of(1, SileroWeights.HIDDEN));

        Tensor padded = g.pad1d(x, PadMode.REFLECT, 0, w.context);
        Tensor spec = g.conv1d(padded, g.constant("stft.basis", w.basis), null, w.hop, 0, 1, 1);
        long bins = w.nFft / 2 + 1;
        Tensor re = g.slice(spec, 1, 0, bins), im = g.slice(spec, 1, bins, 2 * bins);
        Tensor mag = g.sqrt(g.add(g.mul(re, re), g.mul(im, im)));

        Tensor h = mag;
        int[] strides = {1, 2, 2, 1};
        for (int i = 0; i < 4; i++) {
            h = g.relu(g.conv1d(h, g.constant("encoder." + i + ".w", w.encoderW[i]), g.constant("encoder." + i + ".b", w.encoderB[i]),
                    strides[i], 1, 1, 1));
        }
        if (h.dim(2) != 1) throw new IllegalStateException("encoder left " + h.dim(2) + " frames per window, the model expects 1");
        Tensor seq = g.reshape(h, 1, n, SileroWeights.HIDDEN);
        Tensor lstm = g.lstm(seq, g.constant("lstm.w_ih", w.wIh), g.constant("lstm.w_hh", w.wHh),
                g.constant("lstm.b_ih", w.bIh), g.constant("lstm.b_hh", w.bHh), h0, c0); // [2, 1, N, 128]
        Tensor hidden = g.slice(lstm, 0, 0, 1);                                             // [1, 1, N, 128]
        Tensor logit = g.add(g.matmul(g.relu(hidden), g.constant("decoder.w", w.decoderW)), g.constant("decoder.b", w.decoderB));
        Tensor prob = g.sigmoid(logit).named(PROB);
        Tensor state = g.slice(lstm, 2, n - 1, n).named(STATE);
        return g.build(prob, state);
    }
}
