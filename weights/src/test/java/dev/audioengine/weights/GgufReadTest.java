package dev.audioengine.weights;

import static dev.audioengine.weights.GgufTestWriter.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GgufReadTest {
    private final long seed = System.nanoTime();

    @TempDir
    Path dir;

    /** ne is ggml order (innermost first); shape is what the engine must report (outermost first). */
    private record Case(String name, int ggmlType, DType dtype, long[] ne, long[] shape) {}

    private static final List<Case> CASES = List.of(
            new Case("f32", GGML_F32, DType.F32, new long[] {7}, new long[] {7}),
            new Case("f16", GGML_F16, DType.F16, new long[] {5, 3}, new long[] {3, 5}),
            new Case("q4_0", GGML_Q4_0, DType.Q4_0, new long[] {64, 3}, new long[] {3, 64}),
            new Case("q8_0", GGML_Q8_0, DType.Q8_0, new long[] {32, 2, 3}, new long[] {3, 2, 32}),
            new Case("bf16", GGML_BF16, DType.BF16, new long[] {3, 5, 2, 7}, new long[] {7, 2, 5, 3}),
            new Case("i8", GGML_I8, DType.I8, new long[] {257}, new long[] {257}),
            new Case("i32", GGML_I32, DType.I32, new long[] {1, 33}, new long[] {33, 1}),
            new Case("scalar", GGML_F32, DType.F32, new long[] {}, new long[] {}),
            new Case("empty", GGML_F16, DType.F16, new long[] {4, 0}, new long[] {0, 4}));

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void everyTypeReadsBackBitExactWithShapesReversed(int version) throws IOException {
        readBack(version, 32, false);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8, 64, 4096})
    void customAlignmentPlacesTheDataSection(int alignment) throws IOException {
        readBack(3, alignment, true);
    }

    private void readBack(int version, int alignment, boolean setAlignment) throws IOException {
        Random r = new Random(seed);
        GgufTestWriter w = new GgufTestWriter(version);
        if (setAlignment) w.alignment(alignment);
        w.kv("general.architecture", STRING, "test");
        byte[][] data = new byte[CASES.size()][];
        for (int i = 0; i < CASES.size(); i++) {
            Case c = CASES.get(i);
            data[i] = new byte[(int) c.dtype().bytesFor(Shape.of(c.shape()).elements())];
            r.nextBytes(data[i]);
            w.tensor(c.name(), c.ggmlType(), c.ne(), data[i]);
        }
        try (WeightFile f = WeightFiles.open(write("m.gguf", w.toBytes()))) {
            assertThat(f.format()).isEqualTo(WeightFormat.GGUF);
            assertThat(f.names())
                    .containsExactlyElementsOf(CASES.stream().map(Case::name).toList());
            assertThat(f.metadata()).containsEntry("general.architecture", "test");
            long previousEnd = 0;
            for (int i = 0; i < CASES.size(); i++) {
                Case c = CASES.get(i);
                String why = c.name() + ", v" + version + ", alignment " + alignment + ", seed " + seed;
                HostTensor t = f.get(c.name());
                assertThat(t.dtype()).as(why).isEqualTo(c.dtype());
                assertThat(t.shape()).as(why).isEqualTo(Shape.of(c.shape()));
                assertThat(t.data().toArray(ValueLayout.JAVA_BYTE)).as(why).isEqualTo(data[i]);
                float[] expected = ReferenceDecoding.floats(c.dtype(), data[i], (int) t.elements());
                assertThat(bits(t.toFloatArray())).as(why).isEqualTo(bits(expected));
                TensorInfo info = f.info(c.name());
                assertThat(info.fileOffset() % alignment).as(why).isZero();
                assertThat(info.fileOffset()).as(why).isGreaterThanOrEqualTo(previousEnd);
                previousEnd = info.fileOffset() + info.byteSize();
            }
        }
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) b[i] = Float.floatToIntBits(v[i]);
        return b;
    }

    @Test
    void metadataOfEveryType() throws IOException {
        GgufTestWriter w = new GgufTestWriter(3)
                .kv("u8", UINT8, 200)
                .kv("i8", INT8, -100)
                .kv("u16", UINT16, 65000)
                .kv("i16", INT16, -30000)
                .kv("u32", UINT32, 4_000_000_000L)
                .kv("i32", INT32, -2_000_000_000)
                .kv("f32", FLOAT32, 1.5e-3f)
                .kv("bool.t", BOOL, true)
                .kv("bool.f", BOOL, false)
                .kv("str", STRING, "héllo \ud83d\ude00\n")
                .kv("u64", UINT64, -1L)
                .kv("i64", INT64, Long.MIN_VALUE)
                .kv("f64", FLOAT64, Math.PI)
                .kv("empty.str", STRING, "")
                .kv("a.u8", ARRAY, new Arr(UINT8, List.of(0, 255)))
                .kv("a.i8", ARRAY, new Arr(INT8, List.of(-128, 127)))
                .kv("a.u16", ARRAY, new Arr(UINT16, List.of(65535)))
                .kv("a.i16", ARRAY, new Arr(INT16, List.of(-2, 3)))
                .kv("a.u32", ARRAY, new Arr(UINT32, List.of(0xffffffffL, 1L)))
                .kv("a.i32", ARRAY, new Arr(INT32, List.of(-7, 8)))
                .kv("a.f32", ARRAY, new Arr(FLOAT32, List.of(-0.0f, Float.NaN, Float.MIN_VALUE)))
                .kv("a.bool", ARRAY, new Arr(BOOL, List.of(true, false)))
                .kv("a.str", ARRAY, new Arr(STRING, List.of("", "a", "\u00fc\u00df", "<0xE2>")))
                .kv("a.u64", ARRAY, new Arr(UINT64, List.of(Long.MIN_VALUE)))
                .kv("a.i64", ARRAY, new Arr(INT64, List.of(-5L)))
                .kv("a.f64", ARRAY, new Arr(FLOAT64, List.of(1e300, -2.5)))
                .kv("a.empty", ARRAY, new Arr(FLOAT32, List.of()))
                .kv(
                        "a.nested",
                        ARRAY,
                        new Arr(
                                ARRAY,
                                List.of(
                                        new Arr(STRING, List.of("x", "yz")),
                                        new Arr(INT32, List.of(1, 2, 3)),
                                        new Arr(ARRAY, List.of(new Arr(UINT8, List.of(9)))))))
                .tensor("t", GGML_F32, new long[] {1}, new byte[4]);
        Map<String, Object> m;
        try (WeightFile f = WeightFiles.open(write("meta.gguf", w.toBytes()))) {
            m = f.metadata();
        }
        // values are copies: still readable after close
        assertThat(m.get("u8")).isEqualTo((short) 200);
        assertThat(m.get("i8")).isEqualTo((byte) -100);
        assertThat(m.get("u16")).isEqualTo(65000);
        assertThat(m.get("i16")).isEqualTo((short) -30000);
        assertThat(m.get("u32")).isEqualTo(4_000_000_000L);
        assertThat(m.get("i32")).isEqualTo(-2_000_000_000);
        assertThat(m.get("f32")).isEqualTo(1.5e-3f);
        assertThat(m.get("bool.t")).isEqualTo(true);
        assertThat(m.get("bool.f")).isEqualTo(false);
        assertThat(m.get("str")).isEqualTo("héllo \ud83d\ude00\n");
        assertThat(m.get("u64")).isEqualTo(-1L);
        assertThat(Long.toUnsignedString((Long) m.get("u64"))).isEqualTo("18446744073709551615");
        assertThat(m.get("i64")).isEqualTo(Long.MIN_VALUE);
        assertThat(m.get("f64")).isEqualTo(Math.PI);
        assertThat(m.get("empty.str")).isEqualTo("");
        assertThat(m.get("a.u8")).isEqualTo(List.of((short) 0, (short) 255));
        assertThat(m.get("a.i8")).isEqualTo(List.of((byte) -128, (byte) 127));
        assertThat(m.get("a.u16")).isEqualTo(List.of(65535));
        assertThat(m.get("a.i16")).isEqualTo(List.of((short) -2, (short) 3));
        assertThat(m.get("a.u32")).isEqualTo(List.of(0xffffffffL, 1L));
        assertThat(m.get("a.i32")).isEqualTo(List.of(-7, 8));
        List<?> f32 = (List<?>) m.get("a.f32");
        assertThat(Float.floatToRawIntBits((Float) f32.get(0))).isEqualTo(Float.floatToRawIntBits(-0.0f));
        assertThat((Float) f32.get(1)).isNaN();
        assertThat(f32.get(2)).isEqualTo(Float.MIN_VALUE);
        assertThat(m.get("a.bool")).isEqualTo(List.of(true, false));
        assertThat(m.get("a.str")).isEqualTo(List.of("", "a", "\u00fc\u00df", "<0xE2>"));
        assertThat(m.get("a.u64")).isEqualTo(List.of(Long.MIN_VALUE));
        assertThat(m.get("a.i64")).isEqualTo(List.of(-5L));
        assertThat(m.get("a.f64")).isEqualTo(List.of(1e300, -2.5));
        assertThat(m.get("a.empty")).isEqualTo(List.of());
        assertThat(m.get("a.nested"))
                .isEqualTo(List.of(List.of("x", "yz"), List.of(1, 2, 3), List.of(List.of((short) 9))));
        assertThat(new ArrayList<>(m.keySet())).startsWith("u8", "i8", "u16").endsWith("a.empty", "a.nested");
        assertThatThrownBy(() -> ((List<?>) m.get("a.u8")).get(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> m.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    private void assertRejected(byte[] bytes, String... fragments) throws IOException {
        Path p = write("bad.gguf", bytes);
        assertThatThrownBy(() -> WeightFiles.open(p))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining(p.toString())
                .hasMessageContainingAll(fragments);
    }

    @Test
    void unsupportedGgmlTypesNameTypeAndTensor() throws IOException {
        assertRejected(
                new GgufTestWriter(3)
                        .tensor("blk.0.w", 16, new long[] {256}, new byte[66])
                        .toBytes(),
                "unsupported ggml type 16 (IQ2_XXS) for tensor 'blk.0.w'");
        assertRejected(
                new GgufTestWriter(3)
                        .tensor("w", 99, new long[] {1}, new byte[4])
                        .toBytes(),
                "unsupported ggml type 99 (unknown) for tensor 'w'");
    }

    @Test
    void badTensorInfosAreRejected() throws IOException {
        assertRejected(
                new GgufTestWriter(3)
                        .tensor("w", GGML_Q8_0, new long[] {33}, new byte[68])
                        .toBytes(),
                "tensor 'w' is Q8_0 with rows of 33 values");
        assertRejected(
                new GgufTestWriter(3)
                        .tensor("w", GGML_F32, new long[] {1, 1, 1, 1, 1}, new byte[4])
                        .toBytes(),
                "tensor 'w' has 5 dimensions");
        assertRejected(
                new GgufTestWriter(3)
                        .tensor("w", GGML_F32, new long[] {1L << 62, 1L << 62}, new byte[4])
                        .toBytes(),
                "element count of tensor 'w'",
                "overflows");
        assertRejected(
                new GgufTestWriter(3)
                        .tensor("w", GGML_F32, new long[] {-1}, new byte[4])
                        .toBytes(),
                "negative dimension");
        assertRejected(
                new GgufTestWriter(3)
                        .tensorAt("w", GGML_F32, new long[] {1}, new byte[4], 4)
                        .toBytes(),
                "data offset 4 of tensor 'w' is not a multiple of the alignment 32");
        assertRejected(
                new GgufTestWriter(3)
                        .tensor("a", GGML_F32, new long[] {16}, new byte[64])
                        .tensorAt("b", GGML_F32, new long[] {8}, new byte[32], 32)
                        .toBytes(),
                "tensor 'b'",
                "overlaps tensor 'a'");
        assertRejected(
                new GgufTestWriter(3)
                        .tensor("a", GGML_F32, new long[] {1}, new byte[4])
                        .tensor("a", GGML_F32, new long[] {1}, new byte[4])
                        .toBytes(),
                "tensor name 'a' appears twice");
        byte[] truncated = new GgufTestWriter(3)
                .tensor("w", GGML_F32, new long[] {16}, new byte[64])
                .toBytes();
        assertRejected(
                java.util.Arrays.copyOf(truncated, truncated.length - 1),
                "data of tensor 'w'",
                "past the end of the file");
    }

    @Test
    void badHeadersAndMetadataAreRejected() throws IOException {
        assertRejected(new GgufTestWriter(1).toBytes(), "GGUF version 1 is not supported");
        assertRejected(new GgufTestWriter(Integer.reverseBytes(3)).toBytes(), "big-endian");
        assertRejected(new GgufTestWriter(7).toBytes(), "unsupported GGUF version 7");
        assertRejected(
                new GgufTestWriter(3).kv("k", INT32, 1).kv("k", INT32, 2).toBytes(), "metadata key 'k' appears twice");
        assertRejected(
                new GgufTestWriter(3).kv("general.alignment", UINT64, 32L).toBytes(),
                "general.alignment must be a UINT32");
        assertRejected(
                new GgufTestWriter(3).kv("general.alignment", UINT32, 48L).toBytes(), "power of two, found 48");
        assertRejected(new GgufTestWriter(3).kv("general.alignment", UINT32, 0L).toBytes(), "power of two, found 0");
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(0)
                        .u64(1)
                        .str("k")
                        .u32(13)
                        .toByteArray(),
                "metadata 'k' has unknown value type 13");
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(0)
                        .u64(1)
                        .str("k")
                        .u32(ARRAY)
                        .u32(77)
                        .u64(0)
                        .toByteArray(),
                "array of unknown value type 77");
        Arr deep = new Arr(INT8, List.of());
        for (int i = 0; i < 20; i++) deep = new Arr(ARRAY, List.of(deep));
        assertRejected(new GgufTestWriter(3).kv("deep", ARRAY, deep).toBytes(), "nests arrays deeper than 16");
        assertRejected("GGUF".getBytes(), "truncated: GGUF version needs 4 bytes, only 0 left");
        Path noMagic = write("x.gguf", "GGML0000".getBytes());
        assertThatThrownBy(() -> WeightFiles.open(noMagic))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("not a GGUF file: it starts with 47474d4c");
    }

    @Test
    void lengthFieldsOfTwoToTheSixtySecondGiveCleanErrors() throws IOException {
        long huge = 1L << 62;
        LittleEndianBytes header =
                new LittleEndianBytes().bytes("GGUF".getBytes()).u32(3);
        assertRejected(header.toByteArray().clone(), "truncated");
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(huge)
                        .u64(0)
                        .toByteArray(),
                "tensor count is " + huge + " but the remaining");
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(0)
                        .u64(huge)
                        .toByteArray(),
                "metadata key/value count is " + huge);
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(0)
                        .u64(1)
                        .u64(huge)
                        .bytes("key".getBytes())
                        .zeros(32)
                        .toByteArray(),
                "length of metadata key #0 is " + huge);
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(0)
                        .u64(1)
                        .str("k")
                        .u32(STRING)
                        .u64(huge)
                        .toByteArray(),
                "length of metadata 'k' is " + huge);
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(0)
                        .u64(1)
                        .str("k")
                        .u32(ARRAY)
                        .u32(UINT8)
                        .u64(huge)
                        .u8(1)
                        .toByteArray(),
                "length of metadata 'k' is " + huge);
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(0)
                        .u64(1)
                        .str("k")
                        .u32(ARRAY)
                        .u32(STRING)
                        .u64(3)
                        .u64(huge)
                        .zeros(32)
                        .toByteArray(),
                "length of string #0 of metadata 'k' is " + huge);
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(1)
                        .u64(0)
                        .u64(huge)
                        .bytes(new byte[24])
                        .toByteArray(),
                "length of name of tensor #0 is " + huge);
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(1)
                        .u64(0)
                        .str("w")
                        .u32(1)
                        .u64(huge)
                        .u32(GGML_F32)
                        .u64(0)
                        .zeros(64)
                        .toByteArray(),
                "byte size of tensor 'w'",
                "overflows a 64-bit size");
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(1)
                        .u64(0)
                        .str("w")
                        .u32(1)
                        .u64(huge)
                        .u32(GGML_I8)
                        .u64(0)
                        .zeros(64)
                        .toByteArray(),
                "data of tensor 'w'",
                "past the end of the file");
        assertRejected(
                new LittleEndianBytes()
                        .bytes("GGUF".getBytes())
                        .u32(3)
                        .u64(1)
                        .u64(0)
                        .str("w")
                        .u32(1)
                        .u64(1)
                        .u32(GGML_F32)
                        .u64(huge)
                        .zeros(64)
                        .toByteArray(),
                "data of tensor 'w'",
                "past the end of the file");
    }

    @Test
    void entryCountsThatWouldExhaustTheHeapAreCapped() throws IOException {
        // a sparse file large enough that the counts pass the remaining-bytes bound
        long size = 32L * (GgufReader.MAX_ENTRIES + 2);
        for (int which = 0; which < 2; which++) {
            Path p = dir.resolve("many" + which + ".gguf");
            byte[] header = new LittleEndianBytes()
                    .bytes("GGUF".getBytes())
                    .u32(3)
                    .u64(which == 0 ? GgufReader.MAX_ENTRIES + 1 : 0)
                    .u64(which == 1 ? GgufReader.MAX_ENTRIES + 1 : 0)
                    .toByteArray();
            try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(p.toFile(), "rw")) {
                raf.setLength(size);
                raf.write(header);
            }
            assertThatThrownBy(() -> WeightFiles.open(p))
                    .isInstanceOf(WeightFormatException.class)
                    .hasMessageContaining(
                            (which == 0 ? "tensor count " : "metadata count ") + (GgufReader.MAX_ENTRIES + 1))
                    .hasMessageContaining("this reader supports");
        }
    }
}
