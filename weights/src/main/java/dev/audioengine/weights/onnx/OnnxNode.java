package dev.audioengine.weights.onnx;

import java.util.List;

/** An ONNX NodeProto. */
public record OnnxNode(
        String name,
        String opType,
        String domain,
        List<String> inputs,
        List<String> outputs,
        List<OnnxAttribute> attributes) {
    /** The attribute of that name, or null. */
    public OnnxAttribute attribute(String attributeName) {
        for (OnnxAttribute a : attributes) if (a.name().equals(attributeName)) return a;
        return null;
    }
}
