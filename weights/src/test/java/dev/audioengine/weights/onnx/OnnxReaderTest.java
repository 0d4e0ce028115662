package dev.audioengine.weights.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OnnxReaderTest {

    /** A minimal protobuf writer for building test models field by field. */
    static final class Msg {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Msg varint(int field, long v) {
            tag(field, 0);
            raw(v);
            return this;
        }

        Msg bytes(int field, byte[] b) {
            tag(field, 2);
            raw(b.length);
            out.writeBytes(b);
            return this;
        }

        Msg str(int field, String s) {
            return bytes(field, s.getBytes(StandardCharsets.UTF_8));
        }

        Msg msg(int field, Msg m) {
            return bytes(field, m.toBytes());
        }

        Msg fixed32(int field, float f) {
            tag(field, 5);
            out.writeBytes(ByteBuffer.allocate(4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putFloat(f)
                    .array());
            return this;
        }

        Msg packedFloats(int field, float... fs) {
            ByteBuffer b = ByteBuffer.allocate(4 * fs.length).order(ByteOrder.LITTLE_ENDIAN);
            for (float f : fs) b.putFloat(f);
            return bytes(field, b.array());
        }

        Msg packedVarints(int field, long... vs) {
            Msg m = new Msg();
            for (long v : vs) m.raw(v);
            return bytes(field, m.toBytes());
        }

        void tag(int field, int wire) {
            raw(((long) field << 3) | wire);
        }

        void raw(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }

        byte[] toBytes() {
            return out.toByteArray();
        }
    }

    static Msg rawFloatTensor(String name, long[] dims, float... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) b.putFloat(v);
        Msg t = new Msg();
        for (long d : dims) t.varint(1, d); // unpacked dims, as some writers emit
        return t.varint(2, OnnxTensor.FLOAT).str(8, name).bytes(9, b.array());
    }

    static Msg constantNode(String out, Msg tensor) {
        return new Msg()
                .str(2, out)
                .str(4, "Constant")
                .msg(
                        5,
                        new Msg()
                                .str(1, "value")
                                .varint(20, OnnxAttribute.TENSOR)
                                .msg(5, tensor));
    }

    /** input/state/sr in, an If whose branches hold Constant weights (the shape of Silero's graph). */
    static byte[] sampleModel() {
        Msg thenBranch = new Msg()
                .str(2, "then")
                .msg(1, constantNode("w16", rawFloatTensor("conv.weight", new long[] {2, 1, 3}, 1, 2, 3, 4, 5, 6)))
                .msg(12, new Msg().str(1, "w16"));
        Msg typed = new Msg()
                .packedVarints(1, 2)
                .varint(2, OnnxTensor.FLOAT)
                .str(8, "conv.weight")
                .packedFloats(4, -1f, 0.5f);
        Msg ints = new Msg().packedVarints(1, 3).varint(2, OnnxTensor.INT64).packedVarints(7, 7, -1, 1L << 40);
        Msg elseBranch = new Msg()
                .str(2, "else")
                .msg(1, constantNode("w8", typed))
                .msg(1, constantNode("k", ints))
                .msg(12, new Msg().str(1, "w8"));
        Msg ifNode = new Msg()
                .str(1, "cond")
                .str(2, "y")
                .str(3, "the_if")
                .str(4, "If")
                .msg(
                        5,
                        new Msg()
                                .str(1, "then_branch")
                                .varint(20, OnnxAttribute.GRAPH)
                                .msg(6, thenBranch))
                .msg(
                        5,
                        new Msg()
                                .str(1, "else_branch")
                                .varint(20, OnnxAttribute.GRAPH)
                                .msg(6, elseBranch))
                .msg(
                        5,
                        new Msg()
                                .str(1, "alpha")
                                .varint(20, OnnxAttribute.FLOAT)
                                .fixed32(2, 0.25f))
                .msg(5, new Msg().str(1, "pads").varint(20, OnnxAttribute.INTS).packedVarints(8, 1, 2));
        Msg graph = new Msg()
                .str(2, "main")
                .msg(1, ifNode)
                .msg(11, new Msg().str(1, "input"))
                .msg(11, new Msg().str(1, "state"))
                .msg(11, new Msg().str(1, "sr"))
                .msg(12, new Msg().str(1, "y"))
                .msg(5, rawFloatTensor("init", new long[] {}, 42f));
        return new Msg()
                .varint(1, 8)
                .str(2, "test")
                .msg(8, new Msg().str(1, "").varint(2, 16))
                .msg(7, graph)
                .str(99 % 16 + 3, "doc, skipped")
                .toBytes();
    }

    @Test
    void readsGraphsNodesAttributesAndBothTensorEncodings() {
        try (OnnxModel m = OnnxModel.parse(sampleModel(), "sample")) {
            assertThat(m.irVersion()).isEqualTo(8);
            assertThat(m.opsets()).containsEntry("", 16L);
            OnnxGraph g = m.graph();
            assertThat(g.inputs()).containsExactly("input", "state", "sr");
            assertThat(g.outputs()).containsExactly("y");
            assertThat(g.initializers().getFirst().toFloatArray()).containsExactly(42f);
            OnnxNode ifNode = g.nodes().getFirst();
            assertThat(ifNode.opType()).isEqualTo("If");
            assertThat(ifNode.inputs()).containsExactly("cond");
            assertThat(ifNode.attribute("alpha").f()).isEqualTo(0.25f);
            assertThat(ifNode.attribute("pads").ints()).containsExactly(1, 2);
            OnnxTensor w16 = ifNode.attribute("then_branch").g().constants().getFirst();
            assertThat(w16.name()).isEqualTo("w16");
            assertThat(w16.dims()).containsExactly(2, 1, 3);
            assertThat(w16.toFloatArray()).containsExactly(1, 2, 3, 4, 5, 6);
            List<OnnxTensor> c8 = ifNode.attribute("else_branch").g().constants();
            assertThat(c8.get(0).toFloatArray()).containsExactly(-1f, 0.5f);
            assertThat(c8.get(1).toLongArray()).containsExactly(7, -1, 1L << 40);
            List<String> names = new ArrayList<>();
            g.forEachGraph(x -> names.add(x.name()));
            assertThat(names).containsExactly("main", "then", "else");
        }
    }

    @Test
    void everyTruncationFailsCleanly() {
        byte[] good = sampleModel();
        for (int cut = 1; cut < good.length; cut++) {
            byte[] part = Arrays.copyOf(good, cut);
            try (OnnxModel m = OnnxModel.parse(part, "cut")) {
                // a cut that lands on a field boundary of the top-level message can still parse; it must then be
                // complete data
                assertThat(m.graph()).isNotNull();
            } catch (OnnxFormatException e) {
                assertThat(e.getMessage()).startsWith("cut: ");
            }
        }
    }

    @Test
    void hostileLengthsAndShapesAreRejected() {
        // a length field claiming 2^62 bytes
        Msg huge = new Msg();
        huge.tag(7, 2);
        huge.raw(1L << 62);
        assertThatThrownBy(() -> OnnxModel.parse(huge.toBytes(), "huge.onnx"))
                .isInstanceOf(OnnxFormatException.class)
                .hasMessageContaining("huge.onnx")
                .hasMessageContaining("runs past the end");
        // raw_data that does not match the shape, and an element count that overflows
        Msg wrongSize = rawFloatTensor("w", new long[] {1000}, 1f);
        assertThatThrownBy(() -> OnnxModel.parse(modelWith(constantNode("w", wrongSize)), "bad"))
                .hasMessageContaining("raw_data has 4 bytes");
        Msg overflow = rawFloatTensor("w", new long[] {1L << 40, 1L << 40}, 1f);
        assertThatThrownBy(() -> OnnxModel.parse(modelWith(constantNode("w", overflow)), "bad"))
                .hasMessageContaining("overflows");
        Msg negative = rawFloatTensor("w", new long[] {-1}, 1f);
        assertThatThrownBy(() -> OnnxModel.parse(modelWith(constantNode("w", negative)), "bad"))
                .hasMessageContaining("negative");
        // subgraphs nested without end
        Msg g = new Msg().str(2, "leaf");
        for (int i = 0; i < 100; i++) {
            g = new Msg()
                    .msg(
                            1,
                            new Msg()
                                    .str(4, "If")
                                    .msg(5, new Msg().str(1, "then_branch").msg(6, g)));
        }
        byte[] deep = new Msg().varint(1, 8).msg(7, g).toBytes();
        assertThatThrownBy(() -> OnnxModel.parse(deep, "deep")).hasMessageContaining("nested deeper");
        assertThatThrownBy(() -> OnnxModel.parse(new byte[0], "empty.onnx")).hasMessageContaining("empty");
        assertThatThrownBy(() -> OnnxModel.parse("RIFF....WAVEfmt ".getBytes(), "a.wav"))
                .isInstanceOf(OnnxFormatException.class);
    }

    @Test
    void randomBytesAndFlippedBytesNeverEscapeAsAnythingElse() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        byte[] good = sampleModel();
        for (int i = 0; i < 3000; i++) {
            byte[] b = i % 2 == 0 ? good.clone() : new byte[1 + rnd.nextInt(200)];
            if (i % 2 == 0) for (int k = 0; k < 3; k++) b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
            else rnd.nextBytes(b);
            try (OnnxModel m = OnnxModel.parse(b, "fuzz")) {
                assertThat(m).isNotNull();
            } catch (OnnxFormatException expected) {
                // the only acceptable failure
            } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                throw new AssertionError("seed " + seed + " case " + i + " escaped as " + e, e);
            }
        }
    }

    private static byte[] modelWith(Msg node) {
        return new Msg().varint(1, 8).msg(7, new Msg().msg(1, node)).toBytes();
    }
}
