package dev.audioengine.weights.tfjs;

import dev.audioengine.weights.WeightFormatException;
import dev.audioengine.weights.json.JsonFormatException;
import dev.audioengine.weights.json.JsonObject;
import dev.audioengine.weights.json.StrictJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A TensorFlow.js model (tfjs-converter's {@code model.json} and its {@code groupN-shardMofK.bin} files) read as a
 * weight container. The manifest lists the weights in the order their bytes follow one another; each group's
 * shards, in the order the group lists them, are one byte stream. Every weight is decoded to a {@link TfjsTensor};
 * the byte counts must add up exactly (a truncated or padded shard is refused).
 * <p>
 * The graph's nodes ({@code modelTopology.node} of a graph model) are kept as {@link Node}s so a family can check the
 * constants it hard codes (strides, paddings) against the file; layers models ({@code format: layers-model}) have no
 * nodes here. Nothing in the topology is executed.
 */
public final class TfjsModel {
    /** One node of a graph model: its name, op and inputs, and its attributes as parsed JSON. */
    public record Node(String name, String op, List<String> inputs, Map<String, Object> attributes) {}

    private final Path file;
    private final String format, generatedBy, convertedBy;
    private final Map<String, TfjsTensor> weights;
    private final Map<String, Node> nodes;

    private TfjsModel(
            Path file,
            String format,
            String generatedBy,
            String convertedBy,
            Map<String, TfjsTensor> weights,
            Map<String, Node> nodes) {
        this.file = file;
        this.format = format;
        this.generatedBy = generatedBy;
        this.convertedBy = convertedBy;
        this.weights = weights;
        this.nodes = nodes;
    }

    /** Reads {@code modelJson} and the shards its manifest names, from the same folder. */
    public static TfjsModel read(Path modelJson) throws IOException {
        // not toAbsolutePath(): it resolves against the JVM's starting folder, which the resident CLI process leaves
        Path dir = modelJson.getParent() != null ? modelJson.getParent() : Path.of("");
        return read(modelJson, dir::resolve);
    }

    /**
     * Reads {@code modelJson} and its shards, located by {@code shardPath} (a model cache stores them under other
     * names than the manifest's).
     *
     * @param modelJson the model.json file
     * @param shardPath maps a manifest path (e.g. "group1-shard1of1.bin") to the file holding it
     * @return the decoded weights and nodes
     * @throws WeightFormatException when the JSON is not a TF.js model, a dtype is unknown, or the shards hold more
     *     or fewer bytes than the manifest says
     * @throws IOException when a file cannot be read
     */
    public static TfjsModel read(Path modelJson, Function<String, Path> shardPath) throws IOException {
        Object root;
        try {
            root = StrictJson.parse(Files.readAllBytes(modelJson));
        } catch (JsonFormatException e) {
            throw new WeightFormatException(modelJson, 0, "not valid JSON: " + e.getMessage());
        }
        if (!(root instanceof JsonObject m) || !(m.get("weightsManifest") instanceof List<?> manifest))
            throw new WeightFormatException(modelJson, 0, "not a TensorFlow.js model.json (no weightsManifest)");
        Map<String, TfjsTensor> weights = new LinkedHashMap<>();
        for (Object g : manifest) {
            if (!(g instanceof JsonObject group)
                    || !(group.get("paths") instanceof List<?> paths)
                    || !(group.get("weights") instanceof List<?> entries))
                throw new WeightFormatException(modelJson, 0, "a weightsManifest group without paths and weights");
            ByteBuffer bytes = concat(modelJson, paths, shardPath);
            for (Object e : entries) {
                TfjsTensor t = decode(modelJson, e, bytes);
                if (weights.put(t.name(), t) != null)
                    throw new WeightFormatException(modelJson, 0, "weight " + t.name() + " listed twice");
            }
            if (bytes.hasRemaining())
                throw new WeightFormatException(
                        shardPath.apply(String.valueOf(paths.getLast())),
                        bytes.position(),
                        bytes.remaining() + " bytes after the last weight of the group the manifest lists");
        }
        Map<String, Node> nodes = new LinkedHashMap<>();
        if (m.get("modelTopology") instanceof JsonObject topo && topo.get("node") instanceof List<?> list) {
            for (Object o : list) {
                if (!(o instanceof JsonObject n) || !(n.get("name") instanceof String name)) continue;
                List<String> inputs = new ArrayList<>();
                if (n.get("input") instanceof List<?> in) for (Object i : in) inputs.add(String.valueOf(i));
                Map<String, Object> attrs = n.get("attr") instanceof JsonObject a ? a : Map.of();
                nodes.put(name, new Node(name, String.valueOf(n.get("op")), List.copyOf(inputs), attrs));
            }
        }
        return new TfjsModel(
                modelJson,
                string(m.get("format")),
                string(m.get("generatedBy")),
                string(m.get("convertedBy")),
                Collections.unmodifiableMap(weights),
                Collections.unmodifiableMap(nodes));
    }

    private static String string(Object o) {
        return o instanceof String s ? s : null;
    }

    private static ByteBuffer concat(Path modelJson, List<?> paths, Function<String, Path> shardPath)
            throws IOException {
        List<byte[]> parts = new ArrayList<>();
        long total = 0;
        for (Object p : paths) {
            if (!(p instanceof String name) || name.contains("..") || name.startsWith("/"))
                throw new WeightFormatException(modelJson, 0, "shard path " + p + " is not a plain file name");
            byte[] b = Files.readAllBytes(shardPath.apply(name));
            parts.add(b);
            total += b.length;
        }
        if (total > Integer.MAX_VALUE - 8)
            throw new WeightFormatException(modelJson, 0, "shards of " + total + " bytes: over 2 GiB");
        ByteBuffer out = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] b : parts) out.put(b);
        return out.flip();
    }

    private static TfjsTensor decode(Path file, Object entry, ByteBuffer bytes) throws WeightFormatException {
        if (!(entry instanceof JsonObject e)
                || !(e.get("name") instanceof String name)
                || !(e.get("dtype") instanceof String dtype)
                || !(e.get("shape") instanceof List<?> dims))
            throw new WeightFormatException(file, 0, "a manifest weight without name, dtype and shape: " + entry);
        long[] shape = new long[dims.size()];
        long n = 1;
        for (int i = 0; i < shape.length; i++) {
            if (!(dims.get(i) instanceof Long d) || d < 0)
                throw new WeightFormatException(file, 0, name + ": shape " + dims + " is not non-negative integers");
            shape[i] = d;
            n = Math.multiplyExact(n, d);
        }
        if (n > Integer.MAX_VALUE - 8) throw new WeightFormatException(file, 0, name + ": too many elements");
        int count = (int) n;
        String stored = null;
        double scale = 1, min = 0;
        if (e.get("quantization") instanceof JsonObject q) {
            stored = string(q.get("dtype"));
            if (q.get("scale") instanceof Number s) scale = s.doubleValue();
            if (q.get("min") instanceof Number mn) min = mn.doubleValue();
            if (!"uint8".equals(stored) && !"uint16".equals(stored) && !"float16".equals(stored))
                throw new WeightFormatException(file, 0, name + ": quantization dtype " + stored + " is not supported");
        }
        int size = switch (stored != null ? stored : dtype) {
            case "float32", "int32" -> 4;
            case "uint16", "float16" -> 2;
            case "uint8", "bool" -> 1;
            default ->
                throw new WeightFormatException(
                        file, 0, name + ": dtype " + dtype + " is not supported (float32, int32, bool)");
        };
        long need = (long) count * size;
        if (need > bytes.remaining())
            throw new WeightFormatException(
                    file,
                    bytes.position(),
                    name + " needs " + need + " bytes, the shards hold " + bytes.remaining() + " more");
        float[] floats = null;
        int[] ints = null;
        if (dtype.equals("float32")) {
            floats = new float[count];
            for (int i = 0; i < count; i++) {
                floats[i] = stored == null
                        ? bytes.getFloat()
                        : switch (stored) {
                            case "float16" -> Float.float16ToFloat(bytes.getShort());
                            case "uint16" -> (float) (Short.toUnsignedInt(bytes.getShort()) * scale + min);
                            default -> (float) (Byte.toUnsignedInt(bytes.get()) * scale + min);
                        };
            }
        } else if (dtype.equals("int32") || dtype.equals("bool")) {
            ints = new int[count];
            for (int i = 0; i < count; i++) {
                ints[i] = stored == null
                        ? (size == 4 ? bytes.getInt() : Byte.toUnsignedInt(bytes.get()))
                        : switch (stored) {
                            case "uint16" -> (int) Math.round(Short.toUnsignedInt(bytes.getShort()) * scale + min);
                            case "uint8" -> (int) Math.round(Byte.toUnsignedInt(bytes.get()) * scale + min);
                            default -> (int) Float.float16ToFloat(bytes.getShort());
                        };
            }
        } else {
            throw new WeightFormatException(file, 0, name + ": dtype " + dtype + " is not supported");
        }
        return new TfjsTensor(name, dtype, shape, stored, floats, ints);
    }

    /** The model.json this was read from. */
    public Path file() {
        return file;
    }

    /** The JSON's "format" ("graph-model" or "layers-model"), or null when absent. */
    public String format() {
        return format;
    }

    /** The JSON's "generatedBy" (the TensorFlow version), or null. */
    public String generatedBy() {
        return generatedBy;
    }

    /** The JSON's "convertedBy" (the tfjs-converter version), or null. */
    public String convertedBy() {
        return convertedBy;
    }

    /** Every weight by name, in manifest order. */
    public Map<String, TfjsTensor> weights() {
        return weights;
    }

    /** A graph model's nodes by name, in file order; empty for a layers model. */
    public Map<String, Node> nodes() {
        return nodes;
    }

    /**
     * The weight named {@code name}.
     *
     * @throws IllegalArgumentException naming the file when there is none
     */
    public TfjsTensor weight(String name) {
        TfjsTensor t = weights.get(name);
        if (t == null) throw new IllegalArgumentException(file + " has no weight " + name);
        return t;
    }

    /**
     * The weight named {@code name}, checked to have {@code shape}.
     *
     * @throws IllegalArgumentException when it is missing or has another shape
     */
    public TfjsTensor weight(String name, long... shape) {
        TfjsTensor t = weight(name);
        if (!java.util.Arrays.equals(t.shape(), shape))
            throw new IllegalArgumentException(file + ": " + name + " has shape " + java.util.Arrays.toString(t.shape())
                    + ", expected " + java.util.Arrays.toString(shape));
        return t;
    }

    /**
     * The node named {@code name}.
     *
     * @throws IllegalArgumentException naming the file when there is none
     */
    public Node node(String name) {
        Node n = nodes.get(name);
        if (n == null) throw new IllegalArgumentException(file + " has no graph node " + name);
        return n;
    }
}
