package dev.audioengine.models.kokoro;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.blocks.BiLstm;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.weights.WeightScope;

import java.util.Set;

/**
 * The predictor's F0Ntrain: the shared BiLSTM over the aligned features, then per curve three AdainResBlk1d
 * (512 → 512, 512 → 256 upsampling ×2, 256 → 256) and a 1×1 projection → [1, 1, 2F].
 */
final class ProsodyPredictor {
    private final BiLstm shared;
    private final AdainResBlk1d[] f0 = new AdainResBlk1d[3], n = new AdainResBlk1d[3];
    private final Conv1d f0Proj, nProj;

    private ProsodyPredictor(WeightScope p, Set<Capability> effective) {
        shared = BiLstm.load(p.child("shared"));
        for (String branch : new String[] {"F0", "N"}) {
            AdainResBlk1d[] blocks = branch.equals("F0") ? f0 : n;
            WeightScope b = p.child(branch);
            blocks[0] = AdainResBlk1d.load(b.child("0"), 512, 512, false, effective);
            blocks[1] = AdainResBlk1d.load(b.child("1"), 512, 256, true, effective);
            blocks[2] = AdainResBlk1d.load(b.child("2"), 256, 256, false, effective);
        }
        f0Proj = Conv1d.load(p.child("F0_proj"), 1, 0, 1, 1);
        nProj = Conv1d.load(p.child("N_proj"), 1, 0, 1, 1);
    }

    static ProsodyPredictor load(WeightScope predictor, Set<Capability> effective) { return new ProsodyPredictor(predictor, effective); }

    /** en [1, F, 640] (d repeated by the durations), style [1, 128] → {F0, N}, each [1, 1, 2F]. */
    Tensor[] apply(GraphBuilder g, Tensor en, Tensor style) {
        Tensor x = KokoroOps.swapLast(g, shared.apply(g, en));
        return new Tensor[] {curve(g, f0, f0Proj, x, style), curve(g, n, nProj, x, style)};
    }

    private static Tensor curve(GraphBuilder g, AdainResBlk1d[] blocks, Conv1d proj, Tensor x, Tensor style) {
        for (AdainResBlk1d b : blocks) x = b.apply(g, x, style);
        return proj.apply(g, x);
    }
}
