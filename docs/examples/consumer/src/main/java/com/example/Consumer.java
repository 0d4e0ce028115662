package com.example;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;

import java.util.Arrays;
import java.util.Map;

/** The smallest program against the published jars: one graph on the CPU backend, found at run time. */
public class Consumer {
    public static void main(String[] args) {
        try (AudioEngine engine = AudioEngine.builder().backend("cpu").threads(1).build()) {
            GraphBuilder g = new GraphBuilder();
            Tensor x = g.input("x", Shape.of(1, 4));
            Tensor y = g.relu(x).named("y");
            try (CompiledGraph graph = engine.compile(g.build(y));
                 HostTensor in = HostTensor.ofFloats(Shape.of(1, 4), -2, -0.5f, 0.5f, 2);
                 CompiledGraph.Outputs out = graph.run(Map.of("x", in))) {
                System.out.println("relu " + Arrays.toString(out.get("y").toFloatArray()) + " on " + engine.device().name());
            }
        }
    }
}
