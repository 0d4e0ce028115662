package dev.audioengine.models.kokoro;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.BiLstm;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.LayerNorm;
import dev.audioengine.blocks.weights.WeightScope;

/** StyleTTS2's TextEncoder: embedding, three (conv k5 → LayerNorm over channels → LeakyReLU 0.2), a BiLSTM. */
final class TextEncoder {
    private final HostTensor embedding;
    private final Conv1d[] convs = new Conv1d[3];
    private final LayerNorm[] norms = new LayerNorm[3];
    private final BiLstm lstm;

    private TextEncoder(WeightScope s) {
        embedding = s.tensor("embedding.weight");
        for (int i = 0; i < 3; i++) {
            WeightScope c = s.child("cnn", i);
            convs[i] = Conv1d.load(c.child("0"), 1, 2, 1, 1);
            if (convs[i].kernel() != 5) throw new IllegalArgumentException(c.prefix() + " has kernel " + convs[i].kernel());
            norms[i] = new LayerNorm(c.tensor("1.gamma"), c.tensor("1.beta"), 1e-5f);
        }
        lstm = BiLstm.load(s.child("lstm"));
    }

    static TextEncoder load(WeightScope textEncoder) { return new TextEncoder(textEncoder); }

    /** Rows of the embedding: ids must be below this. */
    long symbols() { return embedding.shape().dim(0); }

    /** ids I32 [1, N] → [1, N, 512] (time-major). */
    Tensor apply(GraphBuilder g, Tensor ids) {
        Tensor x = KokoroOps.swapLast(g, g.getRows(g.constant(embedding), ids));
        for (int i = 0; i < 3; i++) {
            Tensor c = convs[i].apply(g, x);
            Tensor n = KokoroOps.swapLast(g, norms[i].apply(g, KokoroOps.swapLast(g, c)));
            x = KokoroOps.leakyRelu(g, n, 0.2f);
        }
        return lstm.apply(g, KokoroOps.swapLast(g, x));
    }
}
