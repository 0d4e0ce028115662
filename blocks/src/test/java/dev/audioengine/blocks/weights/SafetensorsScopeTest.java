package dev.audioengine.blocks.weights;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same scope API over safetensors and GGUF files: prefixes, F32 reads of F16 data, session weight type, ownership. */
class SafetensorsScopeTest {

    @Test
    void childScopesReadByPrefixAndConvertOnce(@TempDir Path dir) throws Exception {
        float[] w = new float[4 * 32];
        for (int i = 0; i < w.length; i++) w[i] = (i % 7 - 3) * 0.25f;
        Path file = dir.resolve("m.safetensors");
        Files.write(file, safetensorsF16("decoder.layers.0.self_attn.q_proj.weight", 4, 32, w));
        try (WeightStore store = WeightStore.open(file, DType.Q8_0)) {
            WeightScope s = store.scope().child("decoder").child("layers", 0);
            assertThat(s.full("self_attn.q_proj.weight")).isEqualTo("decoder.layers.0.self_attn.q_proj.weight");
            var f32 = s.tensor("self_attn.q_proj.weight");
            assertThat(f32.dtype()).isEqualTo(DType.F32);
            assertThat(f32.shape()).isEqualTo(Shape.of(4, 32));
            assertThat(f32.toFloatArray()).isEqualTo(w); // quarter steps are exact in F16
            assertThat(s.weight("self_attn.q_proj.weight").dtype()).isEqualTo(DType.Q8_0);
            assertThat(s.weight("self_attn.q_proj.weight")).isSameAs(s.weight("self_attn.q_proj.weight"));
            assertThat(s.has("self_attn.q_proj.bias")).isFalse();
            assertThat(s.optionalTensor("self_attn.q_proj.bias")).isNull();
            assertThatThrownBy(() -> s.tensor("self_attn.k_proj.weight"))
                    .hasMessageContaining("decoder.layers.0.self_attn.k_proj.weight")
                    .hasMessageContaining("q_proj.weight");
        }
    }

    @Test
    void closedStoreRefusesReads(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("m.safetensors");
        Files.write(file, safetensorsF16("a", 1, 32, new float[32]));
        WeightStore store = WeightStore.open(file, DType.F32);
        WeightScope s = store.scope();
        store.close();
        assertThatThrownBy(() -> s.tensor("a"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void ggufTensorsReadThroughTheSameScope(@TempDir Path dir) throws Exception {
        float[] w = new float[3 * 32];
        for (int i = 0; i < w.length; i++) w[i] = i * 0.5f - 7;
        Path file = dir.resolve("m.gguf");
        Files.write(file, ggufF32("blk.0.attn_q.weight", 3, 32, w));
        try (WeightStore store = WeightStore.open(file, DType.F16)) {
            WeightScope s = store.scope().child("blk", 0);
            assertThat(s.tensor("attn_q.weight").shape())
                    .as("ggml's reversed dims come back outermost first")
                    .isEqualTo(Shape.of(3, 32));
            assertThat(s.tensor("attn_q.weight").toFloatArray()).isEqualTo(w);
            assertThat(s.weight("attn_q.weight").dtype()).isEqualTo(DType.F16);
        }
    }

    /** GGUF v3 with no metadata and one F32 tensor [rows, cols] (ggml order: cols, rows), data at 32-byte alignment. */
    /**
     * A block type the model keeps (the backend multiplies by its blocks) stays as stored for matmul weights, the same
     * bytes, while F32 reads dequantize; without it the weight is dequantized to the session's F32.
     */
    @Test
    void keptBlockTypesStayAsStored(@TempDir Path dir) throws Exception {
        java.util.SplittableRandom r = new java.util.SplittableRandom();
        float[] w = new float[3 * 64];
        for (int i = 0; i < w.length; i++) w[i] = (float) (r.nextDouble() * 4 - 1);
        byte[] blocks;
        float[] dequantized;
        try (var q = dev.audioengine.api.tensor.HostTensor.convert(DType.Q5_1, Shape.of(3, 64), w)) {
            blocks = q.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            dequantized = q.toFloatArray();
        }
        Path file = dir.resolve("m.gguf");
        Files.write(file, gguf("enc.q.weight", 3, 64, 7, blocks)); // ggml type 7: Q5_1
        try (var f = dev.audioengine.weights.WeightFiles.open(file);
                WeightStore kept = WeightStore.of(f, DType.F32, java.util.Set.of(DType.Q5_1));
                WeightStore plain = WeightStore.of(f, DType.F32)) {
            var ours = kept.scope().weight("enc.q.weight");
            assertThat(ours.dtype()).isEqualTo(DType.Q5_1);
            assertThat(ours.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE))
                    .isEqualTo(blocks);
            assertThat(kept.scope().tensor("enc.q.weight").toFloatArray()).isEqualTo(dequantized);
            var f32 = plain.scope().weight("enc.q.weight");
            assertThat(f32.dtype()).isEqualTo(DType.F32);
            assertThat(f32.toFloatArray()).isEqualTo(dequantized);
        }
    }

    private static byte[] ggufF32(String name, int rows, int cols, float[] v) {
        ByteBuffer d = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) d.putFloat(f);
        return gguf(name, rows, cols, 0, d.array());
    }

    /** A GGUF v3 file of one [rows, cols] tensor of ggml type {@code type} holding {@code data}. */
    private static byte[] gguf(String name, int rows, int cols, int type, byte[] data) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        int header = 4 + 4 + 8 + 8 + 8 + n.length + 4 + 16 + 4 + 8;
        int dataAt = (header + 31) / 32 * 32;
        ByteBuffer b = ByteBuffer.allocate(dataAt + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put("GGUF".getBytes(StandardCharsets.US_ASCII)).putInt(3).putLong(1).putLong(0);
        b.putLong(n.length)
                .put(n)
                .putInt(2)
                .putLong(cols)
                .putLong(rows)
                .putInt(type)
                .putLong(0);
        b.position(dataAt);
        b.put(data);
        return b.array();
    }

    static byte[] safetensorsF16(String name, int rows, int cols, float[] v) {
        String header = "{\"" + name + "\":{\"dtype\":\"F16\",\"shape\":[" + rows + "," + cols
                + "],\"data_offsets\":[0," + 2 * v.length + "]}}";
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + h.length + 2 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(h.length).put(h);
        for (float f : v) b.putShort(Float.floatToFloat16(f));
        return b.array();
    }
}
