package dev.audioengine.blocks.weights;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small ONNX models (protobuf wire format, the onnx.proto field numbers) for tests: the
 * same bytes feed the engine's reader and ONNX Runtime, so the two read one file.
 */
final class OnnxTestWriter {
    static final int FLOAT = 1, UINT8 = 2, INT8 = 3, INT64 = 7;
    private final List<byte[]> nodes = new ArrayList<>(),
            initializers = new ArrayList<>(),
            inputs = new ArrayList<>(),
            outputs = new ArrayList<>();
    private final List<byte[]> opsets = new ArrayList<>();

    OnnxTestWriter opset(String domain, long version) {
        opsets.add(new Msg().str(1, domain).varint(2, version).bytes());
        return this;
    }

    OnnxTestWriter initializer(String name, int type, long[] dims, byte[] raw) {
        initializers.add(tensor(name, type, dims, raw));
        return this;
    }

    OnnxTestWriter floats(String name, long[] dims, float... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) b.putFloat(f);
        return initializer(name, FLOAT, dims, b.array());
    }

    OnnxTestWriter longs(String name, long[] dims, long... v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long x : v) b.putLong(x);
        return initializer(name, INT64, dims, b.array());
    }

    OnnxTestWriter input(String name, int type, long... dims) {
        inputs.add(valueInfo(name, type, dims));
        return this;
    }

    OnnxTestWriter output(String name, int type, long... dims) {
        outputs.add(valueInfo(name, type, dims));
        return this;
    }

    /** A node; {@code attributes} are built with {@link #intAttr} and {@link #intsAttr}. */
    OnnxTestWriter node(
            String name, String op, String domain, List<String> in, List<String> out, byte[]... attributes) {
        Msg m = new Msg();
        for (String i : in) m.str(1, i);
        for (String o : out) m.str(2, o);
        m.str(3, name).str(4, op);
        for (byte[] a : attributes) m.msg(5, a);
        if (!domain.isEmpty()) m.str(7, domain);
        nodes.add(m.bytes());
        return this;
    }

    static byte[] intAttr(String name, long v) {
        return new Msg().str(1, name).varint(3, v).varint(20, 2).bytes();
    }

    static byte[] intsAttr(String name, long... v) {
        Msg m = new Msg().str(1, name);
        for (long x : v) m.varint(8, x);
        return m.varint(20, 7).bytes();
    }

    byte[] bytes() {
        Msg g = new Msg();
        for (byte[] n : nodes) g.msg(1, n);
        g.str(2, "test");
        for (byte[] t : initializers) g.msg(5, t);
        for (byte[] i : inputs) g.msg(11, i);
        for (byte[] o : outputs) g.msg(12, o);
        Msg model = new Msg().varint(1, 8).str(2, "audioengine-test");
        if (opsets.isEmpty()) opset("", 17);
        for (byte[] o : opsets) model.msg(8, o);
        return model.msg(7, g.bytes()).bytes();
    }

    private static byte[] tensor(String name, int type, long[] dims, byte[] raw) {
        Msg t = new Msg();
        for (long d : dims) t.varint(1, d);
        return t.varint(2, type).str(8, name).len(9, raw).bytes();
    }

    private static byte[] valueInfo(String name, int type, long[] dims) {
        Msg shape = new Msg();
        for (long d : dims) shape.msg(1, new Msg().varint(1, d).bytes());
        byte[] tensorType = new Msg().varint(1, type).msg(2, shape.bytes()).bytes();
        return new Msg()
                .str(1, name)
                .msg(2, new Msg().msg(1, tensorType).bytes())
                .bytes();
    }

    /** One protobuf message being written. */
    static final class Msg {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Msg varint(int field, long v) {
            tag(field, 0);
            raw(v);
            return this;
        }

        Msg str(int field, String s) {
            return len(field, s.getBytes(StandardCharsets.UTF_8));
        }

        Msg msg(int field, byte[] m) {
            return len(field, m);
        }

        Msg len(int field, byte[] b) {
            tag(field, 2);
            raw(b.length);
            out.writeBytes(b);
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }

        private void tag(int field, int wire) {
            raw(((long) field << 3) | wire);
        }

        private void raw(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }
    }
}
