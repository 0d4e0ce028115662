package dev.audioengine.weights.tfjs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.audioengine.weights.WeightFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A hand-made graph model: float32, int32, uint8-quantized and float16 weights over two shards. */
class TfjsModelTest {
    @TempDir
    Path dir;

    private static final String JSON = """
            {"format": "graph-model", "generatedBy": "2.4.1", "convertedBy": "TensorFlow.js Converter v3.13.0",
             "modelTopology": {"node": [
                {"name": "x", "op": "Placeholder"},
                {"name": "conv", "op": "Conv2D", "input": ["x", "w"], "attr": {"strides": {"list": {"i": ["1","1","3","1"]}}}}]},
             "weightsManifest": [{"paths": ["group1-shard1of2.bin", "group1-shard2of2.bin"], "weights": [
                {"name": "w", "shape": [2, 3], "dtype": "float32"},
                {"name": "pads", "shape": [2, 2], "dtype": "int32"},
                {"name": "q", "shape": [3], "dtype": "float32", "quantization": {"dtype": "uint8", "scale": 0.5, "min": -1.0}},
                {"name": "h", "shape": [], "dtype": "float32", "quantization": {"dtype": "float16"}}]}]}
            """;

    private void write(byte[] bin, String json) throws IOException {
        Files.writeString(dir.resolve("model.json"), json, StandardCharsets.UTF_8);
        // split anywhere: the group's shards are one byte stream
        Files.write(dir.resolve("group1-shard1of2.bin"), Arrays.copyOfRange(bin, 0, 7));
        Files.write(dir.resolve("group1-shard2of2.bin"), Arrays.copyOfRange(bin, 7, bin.length));
    }

    private static byte[] bin(int extra) {
        ByteBuffer b = ByteBuffer.allocate(6 * 4 + 4 * 4 + 3 + 2 + extra).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : new float[] {1.5f, -2f, 3.25f, 0f, 1e-7f, -0.125f}) b.putFloat(f);
        for (int i : new int[] {0, 0, 127, -128}) b.putInt(i);
        b.put((byte) 0).put((byte) 3).put((byte) 255);
        b.putShort(Float.floatToFloat16(0.333f));
        return b.array();
    }

    @Test
    void decodesEveryDtypeAcrossShards() throws IOException {
        write(bin(0), JSON);
        TfjsModel m = TfjsModel.read(dir.resolve("model.json"));
        assertEquals("graph-model", m.format());
        assertEquals("TensorFlow.js Converter v3.13.0", m.convertedBy());
        assertArrayEquals(
                new float[] {1.5f, -2f, 3.25f, 0f, 1e-7f, -0.125f},
                m.weight("w", 2, 3).requireFloats());
        assertArrayEquals(new int[] {0, 0, 127, -128}, m.weight("pads").requireInts());
        assertArrayEquals(new float[] {-1f, 0.5f, 126.5f}, m.weight("q").requireFloats());
        assertEquals("uint8", m.weight("q").quantization());
        assertEquals(
                Float.float16ToFloat(Float.floatToFloat16(0.333f)),
                m.weight("h").requireFloats()[0]);
        assertEquals(0, m.weight("h").shape().length);
        assertEquals(1, m.weight("h").elements());
        assertEquals("Conv2D", m.node("conv").op());
        assertEquals(java.util.List.of("x", "w"), m.node("conv").inputs());
        assertThrows(IllegalArgumentException.class, () -> m.weight("w", 3, 2));
        assertThrows(IllegalArgumentException.class, () -> m.weight("nope"));
    }

    @Test
    void refusesShardsThatDoNotAddUp() throws IOException {
        write(bin(1), JSON);
        var e = assertThrows(WeightFormatException.class, () -> TfjsModel.read(dir.resolve("model.json")));
        assertTrue(e.getMessage().contains("1 bytes after the last weight"), e.getMessage());
        write(Arrays.copyOf(bin(0), bin(0).length - 1), JSON);
        e = assertThrows(WeightFormatException.class, () -> TfjsModel.read(dir.resolve("model.json")));
        assertTrue(e.getMessage().contains("h needs 2 bytes"), e.getMessage());
    }

    @Test
    void refusesWhatIsNotAModel() throws IOException {
        write(bin(0), JSON.replace("\"int32\"", "\"complex64\""));
        var e = assertThrows(WeightFormatException.class, () -> TfjsModel.read(dir.resolve("model.json")));
        assertTrue(e.getMessage().contains("complex64"), e.getMessage());
        write(bin(0), "{\"format\": \"graph-model\"}");
        assertThrows(WeightFormatException.class, () -> TfjsModel.read(dir.resolve("model.json")));
        write(bin(0), JSON.replace("group1-shard1of2.bin\"", "../x.bin\""));
        assertThrows(WeightFormatException.class, () -> TfjsModel.read(dir.resolve("model.json")));
    }
}
