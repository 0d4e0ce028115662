package dev.audioengine.weights.onnx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps the protobuf wire format onto ONNX's ModelProto, GraphProto, NodeProto, AttributeProto
 * and TensorProto (field numbers from onnx.proto); fields it does not need are skipped.
 */
final class OnnxReader {
    /** Subgraphs nest through attributes; a bound keeps a hostile file from exhausting the stack. */
    private static final int MAX_DEPTH = 64;

    private static final int MAX_RANK = 64;

    private OnnxReader() {}

    static OnnxModel parse(MemorySegment seg, String source, Arena arena) {
        ProtoReader r = new ProtoReader(seg, 0, source);
        long ir = -1;
        String producer = "";
        Map<String, Long> opsets = new LinkedHashMap<>();
        OnnxGraph graph = null;
        while (r.hasMore()) {
            int field = r.readTag();
            switch (field) {
                case 1 -> {
                    r.expect(ProtoReader.VARINT, "ModelProto.ir_version");
                    ir = r.readVarint();
                }
                case 2 -> {
                    r.expect(ProtoReader.LEN, "ModelProto.producer_name");
                    producer = r.readString();
                }
                case 7 -> {
                    r.expect(ProtoReader.LEN, "ModelProto.graph");
                    graph = graph(r.readMessage(), 0);
                }
                case 8 -> {
                    r.expect(ProtoReader.LEN, "ModelProto.opset_import");
                    ProtoReader o = r.readMessage();
                    String domain = "";
                    long version = 0;
                    while (o.hasMore()) {
                        int f = o.readTag();
                        if (f == 1 && o.wireType == ProtoReader.LEN) domain = o.readString();
                        else if (f == 2 && o.wireType == ProtoReader.VARINT) version = o.readVarint();
                        else o.skip();
                    }
                    opsets.put(domain, version);
                }
                default -> r.skip();
            }
        }
        if (graph == null || ir < 0) {
            throw new OnnxFormatException(
                    source + ": not an ONNX model (no " + (graph == null ? "graph" : "ir_version") + " field)");
        }
        return new OnnxModel(arena, ir, producer, opsets, graph);
    }

    private static OnnxGraph graph(ProtoReader r, int depth) {
        if (depth > MAX_DEPTH) throw r.error("subgraphs nested deeper than " + MAX_DEPTH);
        String name = "";
        List<OnnxNode> nodes = new ArrayList<>();
        List<OnnxTensor> inits = new ArrayList<>();
        List<String> inputs = new ArrayList<>(), outputs = new ArrayList<>();
        while (r.hasMore()) {
            int field = r.readTag();
            switch (field) {
                case 1 -> {
                    r.expect(ProtoReader.LEN, "GraphProto.node");
                    nodes.add(node(r.readMessage(), depth));
                }
                case 2 -> {
                    r.expect(ProtoReader.LEN, "GraphProto.name");
                    name = r.readString();
                }
                case 5 -> {
                    r.expect(ProtoReader.LEN, "GraphProto.initializer");
                    inits.add(tensor(r.readMessage()));
                }
                case 11 -> {
                    r.expect(ProtoReader.LEN, "GraphProto.input");
                    inputs.add(valueInfoName(r.readMessage()));
                }
                case 12 -> {
                    r.expect(ProtoReader.LEN, "GraphProto.output");
                    outputs.add(valueInfoName(r.readMessage()));
                }
                default -> r.skip();
            }
        }
        return new OnnxGraph(name, List.copyOf(nodes), List.copyOf(inits), List.copyOf(inputs), List.copyOf(outputs));
    }

    private static String valueInfoName(ProtoReader r) {
        String name = "";
        while (r.hasMore()) {
            if (r.readTag() == 1 && r.wireType == ProtoReader.LEN) name = r.readString();
            else r.skip();
        }
        return name;
    }

    private static OnnxNode node(ProtoReader r, int depth) {
        List<String> in = new ArrayList<>(), out = new ArrayList<>();
        List<OnnxAttribute> attrs = new ArrayList<>();
        String name = "", op = "", domain = "";
        while (r.hasMore()) {
            int field = r.readTag();
            switch (field) {
                case 1 -> {
                    r.expect(ProtoReader.LEN, "NodeProto.input");
                    in.add(r.readString());
                }
                case 2 -> {
                    r.expect(ProtoReader.LEN, "NodeProto.output");
                    out.add(r.readString());
                }
                case 3 -> {
                    r.expect(ProtoReader.LEN, "NodeProto.name");
                    name = r.readString();
                }
                case 4 -> {
                    r.expect(ProtoReader.LEN, "NodeProto.op_type");
                    op = r.readString();
                }
                case 5 -> {
                    r.expect(ProtoReader.LEN, "NodeProto.attribute");
                    attrs.add(attribute(r.readMessage(), depth));
                }
                case 7 -> {
                    r.expect(ProtoReader.LEN, "NodeProto.domain");
                    domain = r.readString();
                }
                default -> r.skip();
            }
        }
        if (op.isEmpty()) throw r.error("node '" + name + "' has no op_type");
        return new OnnxNode(name, op, domain, List.copyOf(in), List.copyOf(out), List.copyOf(attrs));
    }

    private static OnnxAttribute attribute(ProtoReader r, int depth) {
        String name = "";
        int type = 0;
        float f = 0;
        long i = 0;
        byte[] s = null;
        OnnxTensor t = null;
        OnnxGraph g = null;
        FloatList floats = new FloatList();
        LongList ints = new LongList();
        List<byte[]> strings = new ArrayList<>();
        List<OnnxTensor> tensors = new ArrayList<>();
        List<OnnxGraph> graphs = new ArrayList<>();
        while (r.hasMore()) {
            int field = r.readTag();
            switch (field) {
                case 1 -> {
                    r.expect(ProtoReader.LEN, "AttributeProto.name");
                    name = r.readString();
                }
                case 20 -> {
                    r.expect(ProtoReader.VARINT, "AttributeProto.type");
                    type = r.readInt32();
                }
                case 2 -> {
                    r.expect(ProtoReader.FIXED32, "AttributeProto.f");
                    f = r.readFixed32Float();
                }
                case 3 -> {
                    r.expect(ProtoReader.VARINT, "AttributeProto.i");
                    i = r.readVarint();
                }
                case 4 -> {
                    r.expect(ProtoReader.LEN, "AttributeProto.s");
                    s = r.readBytes().toArray(ValueLayout.JAVA_BYTE);
                }
                case 5 -> {
                    r.expect(ProtoReader.LEN, "AttributeProto.t");
                    t = tensor(r.readMessage());
                }
                case 6 -> {
                    r.expect(ProtoReader.LEN, "AttributeProto.g");
                    g = graph(r.readMessage(), depth + 1);
                }
                case 7 -> readFloats(r, floats);
                case 8 -> readVarints(r, ints);
                case 9 -> {
                    r.expect(ProtoReader.LEN, "AttributeProto.strings");
                    strings.add(r.readBytes().toArray(ValueLayout.JAVA_BYTE));
                }
                case 10 -> {
                    r.expect(ProtoReader.LEN, "AttributeProto.tensors");
                    tensors.add(tensor(r.readMessage()));
                }
                case 11 -> {
                    r.expect(ProtoReader.LEN, "AttributeProto.graphs");
                    graphs.add(graph(r.readMessage(), depth + 1));
                }
                default -> r.skip();
            }
        }
        return new OnnxAttribute(
                name,
                type,
                f,
                i,
                s,
                t,
                g,
                floats.toArray(),
                ints.toArray(),
                List.copyOf(strings),
                List.copyOf(tensors),
                List.copyOf(graphs));
    }

    private static OnnxTensor tensor(ProtoReader r) {
        String name = "";
        int type = 0;
        LongList dims = new LongList();
        MemorySegment raw = null;
        FloatList floats = new FloatList();
        LongList ints = new LongList(); // int32_data and int64_data
        List<Double> doubles = new ArrayList<>();
        boolean external = false;
        while (r.hasMore()) {
            int field = r.readTag();
            switch (field) {
                case 1 -> readVarints(r, dims);
                case 2 -> {
                    r.expect(ProtoReader.VARINT, "TensorProto.data_type");
                    type = r.readInt32();
                }
                case 4 -> readFloats(r, floats);
                case 5, 7 -> readVarints(r, ints);
                case 8 -> {
                    r.expect(ProtoReader.LEN, "TensorProto.name");
                    name = r.readString();
                }
                case 9 -> {
                    r.expect(ProtoReader.LEN, "TensorProto.raw_data");
                    raw = r.readBytes();
                }
                case 10 -> {
                    if (r.wireType == ProtoReader.LEN) {
                        ProtoReader p = r.readMessage();
                        while (p.hasMore()) doubles.add(Double.longBitsToDouble(p.readFixed64()));
                    } else {
                        r.expect(ProtoReader.FIXED64, "TensorProto.double_data");
                        doubles.add(Double.longBitsToDouble(r.readFixed64()));
                    }
                }
                case 13 -> {
                    external = true;
                    r.skip();
                }
                default -> r.skip();
            }
        }
        if (external)
            throw r.error(
                    "tensor '" + name + "' keeps its data in an external file, which this reader does not follow");
        if (dims.size > MAX_RANK) throw r.error("tensor '" + name + "' has rank " + dims.size);
        long[] d = dims.toArray();
        long n = 1;
        for (long x : d) {
            if (x < 0) throw r.error("tensor '" + name + "' has negative dimension " + x);
            try {
                n = Math.multiplyExact(n, x);
            } catch (ArithmeticException e) {
                throw r.error("tensor '" + name + "' element count overflows");
            }
        }
        int size = OnnxTensor.elementSize(type);
        MemorySegment bytes;
        if (size < 0) {
            bytes = raw != null ? raw : MemorySegment.NULL; // strings and unknown types: names only
        } else if (raw != null) {
            if (n > Long.MAX_VALUE / size || raw.byteSize() != n * size) {
                throw r.error(
                        "tensor '" + name + "' raw_data has " + raw.byteSize() + " bytes, its shape needs " + n * size);
            }
            bytes = raw;
        } else {
            long have = type == OnnxTensor.FLOAT ? floats.size : type == OnnxTensor.DOUBLE ? doubles.size() : ints.size;
            if (have != n || n > Integer.MAX_VALUE / 8)
                throw r.error("tensor '" + name + "' has " + have + " typed values, its shape needs " + n);
            bytes = typedBytes(type, size, (int) n, floats, ints, doubles);
        }
        return new OnnxTensor(name, type, d, bytes);
    }

    /** Typed fields (float_data, int32_data, int64_data, double_data) re-encoded as little-endian element bytes. */
    private static MemorySegment typedBytes(
            int type, int size, int n, FloatList floats, LongList ints, List<Double> doubles) {
        MemorySegment out = MemorySegment.ofArray(new byte[n * size]);
        for (int i = 0; i < n; i++) {
            long at = (long) i * size;
            switch (type) {
                case OnnxTensor.FLOAT ->
                    out.set(ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), at, floats.values[i]);
                case OnnxTensor.DOUBLE ->
                    out.set(ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), at, doubles.get(i));
                case OnnxTensor.FLOAT16, OnnxTensor.BFLOAT16, OnnxTensor.INT16, OnnxTensor.UINT16 ->
                    out.set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), at, (short)
                            ints.values[i]);
                default -> {
                    long v = ints.values[i];
                    for (int b = 0; b < size; b++) out.set(ValueLayout.JAVA_BYTE, at + b, (byte) (v >>> (8 * b)));
                }
            }
        }
        return out;
    }

    private static void readFloats(ProtoReader r, FloatList out) {
        if (r.wireType == ProtoReader.LEN) {
            ProtoReader p = r.readMessage();
            while (p.hasMore()) out.add(p.readFixed32Float());
        } else {
            r.expect(ProtoReader.FIXED32, "repeated float");
            out.add(r.readFixed32Float());
        }
    }

    private static void readVarints(ProtoReader r, LongList out) {
        if (r.wireType == ProtoReader.LEN) {
            ProtoReader p = r.readMessage();
            while (p.hasMore()) out.add(p.readVarint());
        } else {
            r.expect(ProtoReader.VARINT, "repeated integer");
            out.add(r.readVarint());
        }
    }

    /** Growable primitive lists: each element came from at least one byte of input, so growth is bounded by the file. */
    private static final class FloatList {
        float[] values = new float[8];
        int size;

        void add(float v) {
            if (size == values.length) values = java.util.Arrays.copyOf(values, size * 2);
            values[size++] = v;
        }

        float[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }

    private static final class LongList {
        long[] values = new long[8];
        int size;

        void add(long v) {
            if (size == values.length) values = java.util.Arrays.copyOf(values, size * 2);
            values[size++] = v;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
