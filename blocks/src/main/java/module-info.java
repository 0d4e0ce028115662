/**
 * Building blocks shared by the model families (linear, conv, norms, attention, rotary, FFN,
 * transformer layers, BiLSTM) and the {@link dev.audioengine.blocks.weights.WeightScope} they
 * read weights through. Written against the graph API only: never a backend type.
 */
module dev.audioengine.blocks {
    requires transitive dev.audioengine.api;
    requires transitive dev.audioengine.weights;

    exports dev.audioengine.blocks;
    exports dev.audioengine.blocks.weights;
}
