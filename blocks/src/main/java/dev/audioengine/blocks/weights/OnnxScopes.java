package dev.audioengine.blocks.weights;

import dev.audioengine.weights.onnx.OnnxNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The node torch.onnx exported for a module, found from the module's path even where the export's
 * scope names are not that path. torch names a node by the modules on the call stack, so:
 * <ul>
 *   <li>a submodule that its parent calls from a method other than forward is scoped under the
 *       caller (Kokoro's {@code predictor.F0Ntrain} runs {@code predictor.F0.0.conv1} as
 *       {@code /encoder/F0.0/conv1}, without {@code predictor});</li>
 *   <li>a child of an nn.Sequential repeats the container's name ({@code text_encoder.cnn.0.0} is
 *       {@code /text_encoder/cnn.0/cnn.0.0}).</li>
 * </ul>
 * A module path is tried as torch names it ({@link OnnxWeightSource#nodePath}); then against the
 * scopes with the Sequential repetition collapsed; then as the path with one contiguous run of inner
 * modules left out (first and last kept), the shortest such run that names exactly one node; two
 * nodes at that length are an error rather than a guess.
 */
final class OnnxScopes {
    private record Scoped(List<String> segments, String op, OnnxNode node) {}

    private final OnnxIndex index;
    private final String source;
    private final List<Scoped> scoped = new ArrayList<>();

    OnnxScopes(OnnxIndex index, String source) {
        this.index = index;
        this.source = source;
        for (String name : index.nodeNames()) {
            int slash = name.lastIndexOf('/');
            if (slash <= 0 || !name.startsWith("/")) continue;
            String op = name.substring(slash + 1);
            if (op.endsWith("_quant")) op = op.substring(0, op.length() - "_quant".length());
            OnnxNode n = index.node(name);
            scoped.add(new Scoped(collapsed(name.substring(1, slash).split("/")), op, n));
        }
    }

    /** The node {@code /<module scope>/<op>} or its {@code _quant} form for the first op that has one, or null. */
    OnnxNode find(String module, List<String> ops) {
        String path = OnnxWeightSource.nodePath(module);
        for (String op : ops) {
            for (String suffix : List.of("", "_quant")) {
                OnnxNode n = index.node(path + "/" + op + suffix);
                if (n != null) return n;
            }
        }
        List<String> want = List.of(path.substring(1).split("/"));
        for (String op : ops) {
            OnnxNode n = only(want, op, s -> s.equals(want));
            if (n != null) return n;
        }
        for (int left = 1; left <= want.size() - 2; left++) {
            int drop = left;
            for (String op : ops) {
                OnnxNode n = only(want, op, s -> withRunLeftOut(want, s, drop));
                if (n != null) return n;
            }
        }
        return null;
    }

    private OnnxNode only(List<String> want, String op, java.util.function.Predicate<List<String>> matches) {
        List<OnnxNode> found = new ArrayList<>();
        for (Scoped s : scoped)
            if (s.op.equals(op) && matches.test(s.segments) && !found.contains(s.node)) found.add(s.node);
        if (found.size() > 1) {
            throw new IllegalArgumentException(
                    source + ": module /" + String.join("/", want) + " could be any of the " + op + " nodes "
                            + found.stream().map(OnnxNode::name).toList() + "; read the weight by its node name");
        }
        return found.isEmpty() ? null : found.getFirst();
    }

    /** True when {@code s} is {@code want} with {@code drop} consecutive segments removed, neither the first nor the last. */
    private static boolean withRunLeftOut(List<String> want, List<String> s, int drop) {
        if (s.size() != want.size() - drop) return false;
        for (int at = 1; at + drop < want.size(); at++) {
            boolean same = true;
            for (int i = 0; i < s.size() && same; i++) same = s.get(i).equals(want.get(i < at ? i : i + drop));
            if (same) return true;
        }
        return false;
    }

    /** {@code [text_encoder, cnn.0, cnn.0.0]} → {@code [text_encoder, cnn.0.0]}: nn.Sequential's repeated name. */
    private static List<String> collapsed(String[] segments) {
        List<String> out = new ArrayList<>(Arrays.asList(segments));
        for (int i = out.size() - 2; i >= 0; i--) if (out.get(i + 1).startsWith(out.get(i) + ".")) out.remove(i);
        return List.copyOf(out);
    }
}
