package dev.audioengine.weights;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsReadTest {
    private final long seed = System.nanoTime();

    @TempDir
    Path dir;

    private record Case(String name, String dtypeName, DType dtype, long[] shape) {}

    private static final List<Case> CASES = List.of(
            new Case("scalar", "F32", DType.F32, new long[] {}),
            new Case("bias.7", "F32", DType.F32, new long[] {7}),
            new Case("w.f16", "F16", DType.F16, new long[] {3, 5}),
            new Case("w.bf16", "BF16", DType.BF16, new long[] {2, 3, 5, 7}),
            new Case("ids", "I32", DType.I32, new long[] {1, 1, 33}),
            new Case("table", "I8", DType.I8, new long[] {257}),
            new Case("empty", "F32", DType.F32, new long[] {0, 3}),
            new Case("one", "F16", DType.F16, new long[] {1}));

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    @Test
    void everyDtypeAndOddShapeReadsBackBitExact() throws IOException {
        Random r = new Random(seed);
        SafetensorsTestWriter w = new SafetensorsTestWriter();
        byte[][] data = new byte[CASES.size()][];
        for (int i = 0; i < CASES.size(); i++) {
            Case c = CASES.get(i);
            data[i] = new byte[(int) c.dtype().bytesFor(Shape.of(c.shape()).elements())];
            r.nextBytes(data[i]);
            w.add(c.name(), c.dtypeName(), c.shape(), data[i]);
        }
        try (WeightFile f = WeightFiles.open(write("m.safetensors", w.toBytes()))) {
            assertThat(f.format()).isEqualTo(WeightFormat.SAFETENSORS);
            assertThat(f.names())
                    .containsExactlyElementsOf(CASES.stream().map(Case::name).toList());
            assertThat(f.metadata()).isEmpty();
            for (int i = 0; i < CASES.size(); i++) {
                Case c = CASES.get(i);
                HostTensor t = f.get(c.name());
                String why = c.name() + ", seed " + seed;
                assertThat(t.dtype()).as(why).isEqualTo(c.dtype());
                assertThat(t.shape()).as(why).isEqualTo(Shape.of(c.shape()));
                assertThat(t.data().toArray(ValueLayout.JAVA_BYTE)).as(why).isEqualTo(data[i]);
                float[] expected = ReferenceDecoding.floats(c.dtype(), data[i], (int) t.elements());
                assertThat(bits(t.toFloatArray())).as(why).isEqualTo(bits(expected));
                // a view of the mapping, not a copy
                assertThat(t.ownsMemory()).isFalse();
                assertThat(t.data().isNative()).isTrue();
                if (t.byteSize() > 0)
                    assertThat(f.get(c.name()).data().address())
                            .isEqualTo(t.data().address());
                assertThat(f.info(c.name()).byteSize()).isEqualTo(data[i].length);
            }
        }
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) b[i] = Float.floatToIntBits(v[i]);
        return b;
    }

    @Test
    void metadataStringsWithEscapesAndUnicode() throws IOException {
        String header =
                "{\"__metadata__\":{\"format\":\"pt\",\"k\\\"ey\":\"line\\nbreak \\u00e9 \\ud83d\\ude00 \u00e9\\/\\t\"},"
                        + "\"a\":{\"dtype\":\"I8\",\"shape\":[2],\"data_offsets\":[0,2]}}   ";
        try (WeightFile f =
                WeightFiles.open(write("meta.safetensors", SafetensorsTestWriter.raw(header, new byte[] {5, -6})))) {
            assertThat(f.metadata())
                    .isEqualTo(Map.of("format", "pt", "k\"ey", "line\nbreak \u00e9 \ud83d\ude00 \u00e9/\t"));
            assertThat(f.get("a").toFloatArray()).containsExactly(5f, -6f);
        }
    }

    @Test
    void recognisedByContentWithoutTheExtension() throws IOException {
        byte[] bytes = new SafetensorsTestWriter()
                .add("x", "F32", new long[] {1}, new byte[4])
                .toBytes();
        try (WeightFile f = WeightFiles.open(write("model.bin", bytes))) {
            assertThat(f.format()).isEqualTo(WeightFormat.SAFETENSORS);
        }
    }

    private void assertRejected(String header, byte[] data, String... fragments) throws IOException {
        Path p = write("bad.safetensors", SafetensorsTestWriter.raw(header, data));
        assertThatThrownBy(() -> WeightFiles.open(p))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining(p.toString())
                .hasMessageContainingAll(fragments);
    }

    @Test
    void unsupportedDtypeNamesTypeAndTensor() throws IOException {
        assertRejected(
                "{\"w\":{\"dtype\":\"F64\",\"shape\":[1],\"data_offsets\":[0,8]}}",
                new byte[8],
                "unsupported dtype F64 for tensor 'w'");
        assertRejected(
                "{\"w\":{\"dtype\":\"Q99\",\"shape\":[1],\"data_offsets\":[0,8]}}",
                new byte[8],
                "unsupported dtype Q99 for tensor 'w'");
    }

    @Test
    void rankAboveFourIsRejected() throws IOException {
        assertRejected(
                "{\"w\":{\"dtype\":\"I8\",\"shape\":[1,1,1,1,2],\"data_offsets\":[0,2]}}",
                new byte[2],
                "tensor 'w' has rank 5",
                "at most 4");
    }

    @Test
    void badDataPlacementIsRejected() throws IOException {
        assertRejected(
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                        + "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
                new byte[12],
                "overlaps tensor 'a'");
        assertRejected(
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}",
                new byte[7],
                "outside the data section");
        assertRejected(
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}",
                new byte[8],
                "outside the data section");
        assertRejected(
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}",
                new byte[12],
                "= 12 bytes",
                "span 8");
        assertRejected(
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[1099511627776,1099511627776,1099511627776],\"data_offsets\":[0,8]}}",
                new byte[8],
                "overflows");
        assertRejected(
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,8]}}",
                new byte[8],
                "shape of tensor 'a'");
        assertRejected(
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,1e1]}}",
                new byte[8],
                "data_offsets of tensor 'a'");
        assertRejected("{\"a\":{\"dtype\":\"F32\",\"shape\":[2]}}", new byte[8], "needs \"data_offsets\"");
        assertRejected("{\"a\":[1]}", new byte[8], "must be an object");
        assertRejected("{\"__metadata__\":{\"k\":1}}", new byte[0], "value for 'k' must be a string");
    }

    @Test
    void strictJsonHeader() throws IOException {
        String ok = "\"a\":{\"dtype\":\"I8\",\"shape\":[1],\"data_offsets\":[0,1]}";
        assertRejected("{" + ok + ",}", new byte[1], "JSON header", "was expecting double-quote to start field name");
        assertRejected("{" + ok + "} x", new byte[1], "JSON header", "after the JSON value");
        assertRejected("{" + ok + "," + ok + "}", new byte[1], "JSON header", "Duplicate field 'a'");
        assertRejected(
                "{\"a\":{\"dtype\":\"I8\",\"shape\":[01],\"data_offsets\":[0,1]}}",
                new byte[1],
                "JSON header",
                "Leading zeroes not allowed");
        assertRejected("{\"a\\q\":1}", new byte[1], "JSON header", "Unrecognized character escape 'q'");
        assertRejected("{\"a\tb\":1}", new byte[1], "JSON header", "Illegal unquoted character ((CTRL-CHAR, code 9))");
        assertRejected("{\"a\":tru}", new byte[1], "JSON header", "Unrecognized token 'tru'");
        assertRejected(
                "{\"__metadata__\":" + "[".repeat(200) + "]".repeat(200) + "}", new byte[0], "nested deeper than 64");
        byte[] invalidUtf8 = SafetensorsTestWriter.raw("{\"a\u00e9\":1}", new byte[0]);
        invalidUtf8[8 + 3] = (byte) 0xff; // first byte of the two-byte é
        Path p = write("utf8.safetensors", invalidUtf8);
        assertThatThrownBy(() -> WeightFiles.open(p))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("invalid UTF-8")
                .extracting(e -> ((WeightFormatException) e).offset())
                .isEqualTo(11L);
    }

    @Test
    void hugeHeaderLengthGivesACleanError() throws IOException {
        byte[] bytes =
                new LittleEndianBytes().u64(1L << 62).bytes("{}".getBytes()).toByteArray();
        Path p = write("huge.safetensors", bytes);
        assertThatThrownBy(() -> WeightFiles.open(p))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("header length " + (1L << 62) + " exceeds the remaining 2 bytes");
        Path negative = write(
                "neg.safetensors",
                new LittleEndianBytes().u64(-8).bytes("{}".getBytes()).toByteArray());
        assertThatThrownBy(() -> WeightFiles.open(negative))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("header length 18446744073709551608");
    }

    @Test
    void unknownNamesAndClosedFilesFailClearly() throws IOException {
        byte[] bytes = new SafetensorsTestWriter()
                .add("x", "F32", new long[] {2}, new byte[8])
                .toBytes();
        WeightFile f = WeightFiles.open(write("c.safetensors", bytes));
        HostTensor view = f.get("x");
        assertThatThrownBy(() -> f.get("y"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no tensor 'y'");
        f.close();
        f.close();
        assertThatThrownBy(() -> f.get("x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(view::toFloatArray).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> WeightFiles.open(write("empty.safetensors", new byte[0])))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> WeightFiles.open(write("what.bin", "hello world".getBytes())))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("neither GGUF");
    }
}
