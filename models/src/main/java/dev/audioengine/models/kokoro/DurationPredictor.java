package dev.audioengine.models.kokoro;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.blocks.BiLstm;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * The prosody predictor's duration half: DurationEncoder (the style appended to every step, then three rounds of
 * BiLSTM → AdaLayerNorm → style appended again) → d [1, N, 640], and the duration LSTM and projection →
 * Σ sigmoid over its 50 outputs, per phoneme.
 */
final class DurationPredictor {
    private final BiLstm[] lstms = new BiLstm[3];
    private final AdaIn[] norms = new AdaIn[3];
    private final BiLstm lstm;
    private final Linear proj;

    private DurationPredictor(WeightScope predictor) {
        WeightScope enc = predictor.child("text_encoder.lstms");
        for (int i = 0; i < 3; i++) {
            lstms[i] = BiLstm.load(enc.child(String.valueOf(2 * i)));
            norms[i] = AdaIn.load(enc.child(String.valueOf(2 * i + 1)), 2L * lstms[i].hidden());
        }
        lstm = BiLstm.load(predictor.child("lstm"));
        proj = Linear.load(predictor.child("duration_proj.linear_layer"));
        if (proj.inFeatures() != 2L * lstm.hidden()) throw new IllegalArgumentException("duration_proj takes " + proj.inFeatures());
    }

    static DurationPredictor load(WeightScope predictor) { return new DurationPredictor(predictor); }

    /** dEn [1, N, 512] (bert_encoder's output), style [1, 128], styleRows [1, N, 128] (the style on each step) → d [1, N, 640]. */
    Tensor encode(GraphBuilder g, Tensor dEn, Tensor style, Tensor styleRows) {
        Tensor x = g.concat(2, dEn, styleRows);
        for (int i = 0; i < 3; i++) x = g.concat(2, norms[i].layer(g, lstms[i].apply(g, x), style), styleRows);
        return x;
    }

    /** d [1, N, 640] → Σ sigmoid(duration_proj(lstm(d))) [1, N], before the speed. */
    Tensor durations(GraphBuilder g, Tensor d) {
        return g.sum(g.sigmoid(proj.apply(g, lstm.apply(g, d))), 2, false);
    }
}
