package dev.audioengine.weights.onnx;

import java.util.List;

/** An ONNX AttributeProto; only the fields its {@code type} names are meaningful. */
public record OnnxAttribute(
        String name,
        int type,
        float f,
        long i,
        byte[] s,
        OnnxTensor t,
        OnnxGraph g,
        float[] floats,
        long[] ints,
        List<byte[]> strings,
        List<OnnxTensor> tensors,
        List<OnnxGraph> graphs) {
    public static final int FLOAT = 1,
            INT = 2,
            STRING = 3,
            TENSOR = 4,
            GRAPH = 5,
            FLOATS = 6,
            INTS = 7,
            STRINGS = 8,
            TENSORS = 9,
            GRAPHS = 10;

    public String stringValue() {
        return s == null ? null : new String(s, java.nio.charset.StandardCharsets.UTF_8);
    }
}
