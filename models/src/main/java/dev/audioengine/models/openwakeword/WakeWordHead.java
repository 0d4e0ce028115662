package dev.audioengine.models.openwakeword;

import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.weights.json.StrictJson;
import dev.audioengine.weights.onnx.OnnxAttribute;
import dev.audioengine.weights.onnx.OnnxGraph;
import dev.audioengine.weights.onnx.OnnxModel;
import dev.audioengine.weights.onnx.OnnxNode;
import dev.audioengine.weights.onnx.OnnxTensor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One openWakeWord classifier ("head"): a stack of dense layers over the last {@link #window} embeddings, flattened.
 * Every openWakeWord head has this shape (openWakeWord's training code exports it from PyTorch):
 * <pre>
 * [1, window, 96] → Flatten → (Gemm → [LayerNorm] → ReLU)* → Gemm → Sigmoid        one keyword
 *                                                          → ReLU → Softmax       several classes (timer)
 * </pre>
 * and optionally a verifier (hey_jarvis v0.1): a second stack of the same kind on the same input, whose score
 * replaces the first one where that reaches a threshold (an ONNX {@code If} on {@code p1 >= 0.5}).
 * <p>
 * The weights are located by the nodes they feed (a Gemm's B and C inputs; a LayerNorm's scale and bias, spelled as
 * one LayerNormalization node or as PyTorch's decomposition into ReduceMean, Sub, Pow, Sqrt, Div, Mul and Add); the
 * graph is read only to learn which of those pieces each layer has. A file with any other op, or whose layers do not
 * chain, is refused naming what is wrong: the engine never runs a foreign graph.
 */
final class WakeWordHead implements AutoCloseable {
    enum Activation {
        RELU,
        SIGMOID,
        SOFTMAX
    }

    /** One Gemm (x·Wᵀ + b), an optional layer norm over its output, then its activations in order. */
    record Dense(
            HostTensor weight, HostTensor bias, HostTensor gamma, HostTensor beta, float eps, List<Activation> acts) {
        int in() {
            return (int) weight.shape().dim(1);
        }

        int out() {
            return (int) weight.shape().dim(0);
        }
    }

    /** The head's name: the file name without ".onnx" and a version suffix ("hey_jarvis_v0.1.onnx" → hey_jarvis). */
    final String name;
    /** Embeddings the head reads (16 for most; weather 22, timer 34). */
    final int window;

    final List<Dense> layers;
    /** The verifier stack, or null; its score replaces the first where that is at least {@link #verifierThreshold}. */
    final List<Dense> verifier;

    final float verifierThreshold;
    /** The keywords it reports; {@link #labelClass}[i] is the output class label i reads. */
    final List<String> labels;

    final int[] labelClass;
    private final List<HostTensor> owned = new ArrayList<>();

    private WakeWordHead(String name, OnnxModel m, String source) {
        this.name = name;
        try {
            Map<String, OnnxTensor> init = OpenWakeWordWeights.initializers(m);
            Parsed main = parse(m.graph(), init, source, true);
            layers = main.layers;
            verifier = main.verifier;
            verifierThreshold = main.threshold;
            int in = layers.getFirst().in();
            if (in % OpenWakeWordNetwork.EMBEDDING_DIM != 0)
                throw bad(
                        source,
                        "its first layer takes " + in + " inputs, not a whole number of "
                                + OpenWakeWordNetwork.EMBEDDING_DIM
                                + "-value embeddings (openWakeWord heads take [1, N, "
                                + OpenWakeWordNetwork.EMBEDDING_DIM + "])");
            window = in / OpenWakeWordNetwork.EMBEDDING_DIM;
            if (window > OpenWakeWordNetwork.MAX_HEAD_WINDOW)
                throw bad(
                        source,
                        "it reads " + window + " embeddings; at most " + OpenWakeWordNetwork.MAX_HEAD_WINDOW
                                + " are kept");
            int classes = layers.getLast().out();
            if (verifier != null) {
                if (verifier.getFirst().in() != in
                        || classes != 1
                        || verifier.getLast().out() != 1)
                    throw bad(source, "its verifier does not score the same input as the one-keyword classifier");
            }
            List<String> l = new ArrayList<>();
            List<Integer> c = new ArrayList<>();
            if (classes == 1) {
                l.add(name);
                c.add(0);
            } else {
                Map<Integer, String> mapping = classNames(m.graph().outputs().getFirst(), classes);
                for (var e : mapping.entrySet()) {
                    c.add(e.getKey());
                    l.add(e.getValue());
                }
            }
            labels = List.copyOf(l);
            labelClass = c.stream().mapToInt(Integer::intValue).toArray();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Reads a head; the name is the keyword it reports (or the prefix of its class names' fallback). */
    static WakeWordHead fromOnnx(OnnxModel m, String name, String source) {
        return new WakeWordHead(name, m, source);
    }

    /** "hey_jarvis_v0.1.onnx" → "hey_jarvis"; "my_word.onnx" → "my_word". */
    static String nameOf(String fileName) {
        String n = fileName.endsWith(".onnx") ? fileName.substring(0, fileName.length() - 5) : fileName;
        return n.replaceFirst("_v\\d+(\\.\\d+)*$", "");
    }

    /** Scores the head produces per frame before {@link #labels} are picked: its classes, then the verifier's one. */
    int outputs() {
        return layers.getLast().out() + (verifier == null ? 0 : 1);
    }

    private record Parsed(List<Dense> layers, List<Dense> verifier, float threshold) {}

    private Parsed parse(OnnxGraph g, Map<String, OnnxTensor> outer, String source, boolean top) {
        Map<String, OnnxTensor> init = new HashMap<>(outer);
        for (OnnxTensor t : g.constants()) init.put(t.name(), t);
        for (OnnxTensor t : g.initializers()) init.put(t.name(), t);
        List<Dense> out = new ArrayList<>();
        List<Dense> verifier = null;
        float threshold = Float.NaN;
        // the layer being read: its Gemm's tensors, layer-norm pieces and activations
        HostTensor w = null, b = null, gamma = null, beta = null;
        float eps = Float.NaN;
        List<Activation> acts = new ArrayList<>();
        List<String> norm = null; // ops of a decomposed layer norm seen so far, or null outside one
        boolean flattened = false;
        for (OnnxNode n : g.nodes()) {
            String op = n.opType();
            switch (op) {
                case "Constant", "Cast", "Identity" -> {}
                case "Flatten" -> {
                    if (w != null || !out.isEmpty()) throw bad(source, "a Flatten after the first layer");
                    flattened = true;
                }
                case "Gemm" -> {
                    if (w != null) out.add(dense(w, b, gamma, beta, eps, acts, norm, source));
                    checkGemm(n, source);
                    OnnxTensor wt = init.get(n.inputs().get(1));
                    OnnxTensor bt = n.inputs().size() > 2 ? init.get(n.inputs().get(2)) : null;
                    if (wt == null || wt.dims().length != 2)
                        throw bad(source, "Gemm " + n.name() + " has no 2-D weight initializer");
                    w = own(HostTensor.ofFloats(Shape.of(wt.dims()), floats(wt, source)));
                    b = bt == null ? null : own(HostTensor.ofFloats(Shape.of(bt.elements()), floats(bt, source)));
                    if (b != null && b.elements() != wt.dims()[0])
                        throw bad(
                                source,
                                "Gemm " + n.name() + " bias of " + b.elements() + " for " + wt.dims()[0] + " outputs");
                    gamma = beta = null;
                    eps = Float.NaN;
                    acts = new ArrayList<>();
                    norm = null;
                }
                case "LayerNormalization" -> {
                    requireLayer(w, n, source);
                    OnnxAttribute axis = n.attribute("axis");
                    if (axis != null && axis.i() != -1 && axis.i() != 1)
                        throw bad(source, "LayerNormalization over axis " + axis.i());
                    gamma = own(vector(init, n.inputs().get(1), (int) w.shape().dim(0), source));
                    beta = n.inputs().size() > 2
                            ? own(vector(
                                    init, n.inputs().get(2), (int) w.shape().dim(0), source))
                            : null;
                    eps = n.attribute("epsilon") == null
                            ? 1e-5f
                            : n.attribute("epsilon").f();
                }
                case "ReduceMean", "Sub", "Pow", "Sqrt", "Div" -> {
                    requireLayer(w, n, source);
                    if (norm == null) {
                        if (!op.equals("ReduceMean") || gamma != null)
                            throw bad(source, "a " + op + " outside a layer norm (node " + n.name() + ")");
                        norm = new ArrayList<>();
                    }
                    if (op.equals("Pow")) {
                        OnnxTensor e = init.get(n.inputs().get(1));
                        if (e == null || e.elements() != 1 || e.toFloatArray()[0] != 2f)
                            throw bad(source, "a Pow that is not a square in the layer norm");
                    }
                    if (op.equals("ReduceMean")) {
                        OnnxAttribute axes = n.attribute("axes");
                        if (axes != null && !(axes.ints().length == 1 && (axes.ints()[0] == -1 || axes.ints()[0] == 1)))
                            throw bad(source, "a ReduceMean that is not over the features");
                    }
                    norm.add(op);
                }
                case "Mul", "Add" -> {
                    requireLayer(w, n, source);
                    if (norm == null) throw bad(source, "a " + op + " outside a layer norm (node " + n.name() + ")");
                    OnnxTensor c = constantInput(n, init);
                    if (c == null) throw bad(source, op + " " + n.name() + " has no constant operand");
                    int size = (int) w.shape().dim(0);
                    if (op.equals("Add") && c.elements() == 1 && Float.isNaN(eps)) {
                        eps = c.toFloatArray()[0];
                        norm.add("Add(eps)");
                    } else if (op.equals("Mul") && c.elements() == size && gamma == null) {
                        gamma = own(HostTensor.ofFloats(Shape.of(size), floats(c, source)));
                        norm.add("Mul");
                    } else if (op.equals("Add") && c.elements() == size && beta == null) {
                        beta = own(HostTensor.ofFloats(Shape.of(size), floats(c, source)));
                        norm.add("Add");
                        List<String> expected = List.of(
                                "ReduceMean", "Sub", "Pow", "ReduceMean", "Add(eps)", "Sqrt", "Div", "Mul", "Add");
                        if (!norm.equals(expected))
                            throw bad(source, "a layer norm made of " + norm + ", expected " + expected);
                        norm = null;
                    } else {
                        throw bad(source, op + " " + n.name() + " is not part of a layer norm");
                    }
                }
                case "Relu" -> {
                    requireLayer(w, n, source);
                    acts.add(Activation.RELU);
                }
                case "Sigmoid" -> {
                    requireLayer(w, n, source);
                    acts.add(Activation.SIGMOID);
                }
                case "Softmax" -> {
                    requireLayer(w, n, source);
                    OnnxAttribute axis = n.attribute("axis");
                    if (axis != null && axis.i() != -1 && axis.i() != 1)
                        throw bad(source, "Softmax over axis " + axis.i());
                    acts.add(Activation.SOFTMAX);
                }
                case "GreaterOrEqual" -> {
                    OnnxTensor c = constantInput(n, init);
                    if (!top || c == null || c.elements() != 1)
                        throw bad(source, "a GreaterOrEqual that is not the verifier's threshold");
                    threshold = c.toFloatArray()[0];
                }
                case "If" -> {
                    if (!top || Float.isNaN(threshold)) throw bad(source, "an If that is not a verifier");
                    OnnxAttribute then = n.attribute("then_branch"), other = n.attribute("else_branch");
                    if (then == null || other == null || then.g() == null || other.g() == null)
                        throw bad(source, "an If without both branches");
                    for (OnnxNode e : other.g().nodes())
                        if (!e.opType().equals("Identity"))
                            throw bad(source, "the If's else branch computes something (" + e.opType() + ")");
                    verifier = parse(then.g(), init, source, false).layers;
                }
                default ->
                    throw bad(source, "op " + op + " (node " + n.name() + ") is not part of an openWakeWord head");
            }
        }
        if (w == null) throw bad(source, "no Gemm layer");
        if (!flattened) throw bad(source, "no Flatten of the [1, N, 96] input");
        out.add(dense(w, b, gamma, beta, eps, acts, norm, source));
        for (int i = 1; i < out.size(); i++)
            if (out.get(i).in() != out.get(i - 1).out())
                throw bad(
                        source,
                        "layer " + i + " takes " + out.get(i).in() + " inputs after "
                                + out.get(i - 1).out() + " outputs");
        for (int i = 0; i < out.size() - 1; i++)
            if (!out.get(i).acts().equals(List.of(Activation.RELU)))
                throw bad(source, "hidden layer " + i + " ends in " + out.get(i).acts() + ", expected ReLU");
        List<Activation> last = out.getLast().acts();
        boolean oneKeyword = last.equals(List.of(Activation.SIGMOID));
        boolean classes =
                last.equals(List.of(Activation.RELU, Activation.SOFTMAX)) || last.equals(List.of(Activation.SOFTMAX));
        if (!oneKeyword && !classes)
            throw bad(source, "the last layer ends in " + last + ", expected Sigmoid or Softmax");
        if (verifier != null && !verifier.getLast().acts().equals(List.of(Activation.SIGMOID)))
            throw bad(source, "the verifier does not end in a Sigmoid");
        return new Parsed(List.copyOf(out), verifier, threshold);
    }

    private Dense dense(
            HostTensor w,
            HostTensor b,
            HostTensor gamma,
            HostTensor beta,
            float eps,
            List<Activation> acts,
            List<String> norm,
            String source) {
        if (norm != null) throw bad(source, "a layer norm that ends before its scale and bias: " + norm);
        if (gamma != null && beta == null) throw bad(source, "a layer norm without a bias");
        return new Dense(w, b, gamma, beta, gamma == null ? 0f : eps, List.copyOf(acts));
    }

    private static void checkGemm(OnnxNode n, String source) {
        for (OnnxAttribute a : n.attributes()) {
            boolean ok = switch (a.name()) {
                case "alpha", "beta" -> a.f() == 1f;
                case "transA" -> a.i() == 0;
                case "transB" -> a.i() == 1;
                default -> false;
            };
            if (!ok) throw bad(source, "Gemm " + n.name() + " has " + a.name() + " of an unsupported value");
        }
        if (n.attribute("transB") == null)
            throw bad(source, "Gemm " + n.name() + " does not take its weight as [out, in] (transB=1)");
    }

    private static void requireLayer(HostTensor w, OnnxNode n, String source) {
        if (w == null) throw bad(source, n.opType() + " " + n.name() + " before the first Gemm");
    }

    private static OnnxTensor constantInput(OnnxNode n, Map<String, OnnxTensor> init) {
        for (String in : n.inputs()) if (init.containsKey(in)) return init.get(in);
        return null;
    }

    private static HostTensor vector(Map<String, OnnxTensor> init, String name, int size, String source) {
        OnnxTensor t = init.get(name);
        if (t == null || t.elements() != size) throw bad(source, name + " is not a constant of " + size + " values");
        return HostTensor.ofFloats(Shape.of(size), floats(t, source));
    }

    private static float[] floats(OnnxTensor t, String source) {
        if (t.dataType() != OnnxTensor.FLOAT)
            throw bad(source, t.name() + " is ONNX type " + t.dataType() + ", expected float");
        return t.toFloatArray();
    }

    /**
     * openWakeWord names a classifier's classes in its output's name, a JSON object of class index → name (the timer
     * head: {"1": "1_minute_timer", ...}; class 0, the background, is not named and not reported). Without one,
     * every class is reported as name_i.
     */
    private Map<Integer, String> classNames(String output, int classes) {
        Map<Integer, String> out = new TreeMap<>();
        try {
            if (StrictJson.parse(output.getBytes(StandardCharsets.UTF_8)) instanceof Map<?, ?> map) {
                for (var e : map.entrySet()) {
                    int i = Integer.parseInt(String.valueOf(e.getKey()));
                    if (i >= 0 && i < classes && e.getValue() instanceof String s && !s.isBlank()) out.put(i, s);
                }
            }
        } catch (RuntimeException | dev.audioengine.weights.json.JsonFormatException notJson) {
            out.clear();
        }
        if (out.isEmpty() || Set.copyOf(out.values()).size() != out.size()) {
            out.clear();
            for (int i = 0; i < classes; i++) out.put(i, name + "_" + i);
        }
        return out;
    }

    private static IllegalArgumentException bad(String source, String what) {
        return new IllegalArgumentException(source + " is not an openWakeWord head of the supported shape: " + what);
    }

    private HostTensor own(HostTensor h) {
        owned.add(h);
        return h;
    }

    @Override
    public void close() {
        owned.forEach(HostTensor::close);
        owned.clear();
    }
}
