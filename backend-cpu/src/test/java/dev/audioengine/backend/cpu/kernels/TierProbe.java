package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * Not a test by itself: the child process of {@link CrossTierDeterminismTest}. Runs the CPU kernels that hold
 * floating-point reductions or transcendental functions on fixed inputs (odd sizes, so vector loops and scalar tails
 * both run), each {@code args[0]} times before the run it reports, and prints one line per op: its name and a CRC of
 * its output's bits. Run once under {@code -Xint} (every Vector API call takes the JDK's Java fallback) and once with
 * the kernels compiled by C2 first, the two must print the same lines: a cold process and a warm one give the same
 * bits.
 */
public final class TierProbe {
    private TierProbe() {}

    private record Probe(String name, Graph graph, Map<String, HostTensor> inputs) {}

    public static void main(String[] args) throws Exception {
        int warm = Integer.parseInt(args[0]);
        try (AudioEngine engine =
                AudioEngine.builder().backend("cpu").threads(1).build()) {
            for (Probe p : probes()) {
                try (CompiledGraph cg = engine.compile(p.graph())) {
                    for (int i = 0; i < warm; i++) cg.run(p.inputs()).close();
                    try (CompiledGraph.Outputs out = cg.run(p.inputs())) {
                        float[] v = out.get(0).toFloatArray();
                        CRC32 crc = new CRC32();
                        for (float f : v) {
                            int bits = Float.floatToRawIntBits(f);
                            crc.update(new byte[] {
                                (byte) bits, (byte) (bits >> 8), (byte) (bits >> 16), (byte) (bits >> 24)
                            });
                        }
                        System.out.printf("%s %08x %d%n", p.name(), crc.getValue(), v.length);
                    }
                }
            }
        }
    }

    private static HostTensor uniform(SplittableRandom r, Shape shape, double lo, double hi) {
        float[] v = new float[Math.toIntExact(shape.elements())];
        for (int i = 0; i < v.length; i++) v[i] = (float) r.nextDouble(lo, hi);
        return HostTensor.ofFloats(shape, v);
    }

    static List<Probe> probes() {
        SplittableRandom r = new SplittableRandom(20261207L);
        List<Probe> out = new ArrayList<>();
        for (UnaryKind kind : UnaryKind.values()) {
            double lo = -6, hi = 6;
            switch (kind) {
                case LOG, SQRT -> {
                    lo = 1e-3;
                    hi = 40;
                }
                case EXP -> {
                    lo = -20;
                    hi = 20;
                }
                case SIN, COS -> {
                    lo = -60;
                    hi = 60;
                }
                default -> {}
            }
            GraphBuilder g = new GraphBuilder();
            // LOG over more values: the Vector API's LOG parted from Math.log on about 66 inputs in a million
            Shape s = Shape.of(kind == UnaryKind.LOG ? 64 : 3, 1027);
            var x = g.input("x", s);
            out.add(new Probe("unary." + kind, g.build(g.unary(kind, x, 0.7f)), Map.of("x", uniform(r, s, lo, hi))));
        }
        Shape rows = Shape.of(6, 999);
        {
            GraphBuilder g = new GraphBuilder();
            var x = g.input("x", rows);
            out.add(new Probe("softmax", g.build(g.softmax(x)), Map.of("x", uniform(r, rows, -8, 8))));
        }
        {
            GraphBuilder g = new GraphBuilder();
            var x = g.input("x", rows);
            out.add(new Probe("sum", g.build(g.sum(x, -1, false)), Map.of("x", uniform(r, rows, -1e3, 1e4))));
        }
        {
            GraphBuilder g = new GraphBuilder();
            var x = g.input("x", rows);
            var gamma = g.input("gamma", Shape.of(999));
            var beta = g.input("beta", Shape.of(999));
            Map<String, HostTensor> in = new LinkedHashMap<>();
            in.put("x", uniform(r, rows, -3, 50));
            in.put("gamma", uniform(r, Shape.of(999), 0.5, 1.5));
            in.put("beta", uniform(r, Shape.of(999), -1, 1));
            out.add(new Probe("layerNorm", g.build(g.layerNorm(x, gamma, beta, 1e-5f)), in));
        }
        {
            GraphBuilder g = new GraphBuilder();
            var x = g.input("x", rows);
            var gamma = g.input("gamma", Shape.of(999));
            Map<String, HostTensor> in = new LinkedHashMap<>();
            in.put("x", uniform(r, rows, -3, 5));
            in.put("gamma", uniform(r, Shape.of(999), 0.5, 1.5));
            out.add(new Probe("rmsNorm", g.build(g.rmsNorm(x, gamma, 1e-6f)), in));
        }
        {
            GraphBuilder g = new GraphBuilder();
            Shape s = Shape.of(2, 8, 333);
            var x = g.input("x", s);
            out.add(new Probe(
                    "groupNorm", g.build(g.groupNorm(x, 4, null, null, 1e-5f)), Map.of("x", uniform(r, s, -2, 9))));
        }
        {
            GraphBuilder g = new GraphBuilder();
            Shape s = Shape.of(1, 5, 777);
            var x = g.input("x", s);
            var alpha = g.input("alpha", Shape.of(5));
            Map<String, HostTensor> in = new LinkedHashMap<>();
            in.put("x", uniform(r, s, -30, 30));
            in.put("alpha", uniform(r, Shape.of(5), 0.2, 3));
            out.add(new Probe("snake", g.build(g.snake(x, alpha)), in));
        }
        for (int tq : new int[] {1, 37}) {
            GraphBuilder g = new GraphBuilder();
            Shape q = Shape.of(1, 2, tq, 64), kv = Shape.of(1, 2, 53, 64);
            var qt = g.input("q", q);
            var kt = g.input("k", kv);
            var vt = g.input("v", kv);
            Map<String, HostTensor> in = new LinkedHashMap<>();
            in.put("q", uniform(r, q, -2, 2));
            in.put("k", uniform(r, kv, -2, 2));
            in.put("v", uniform(r, kv, -2, 2));
            out.add(new Probe("attention.tq" + tq, g.build(g.attention(qt, kt, vt, null, 0.125f, tq > 1)), in));
        }
        return out;
    }
}
