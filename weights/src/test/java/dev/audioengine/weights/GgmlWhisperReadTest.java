package dev.audioengine.weights;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * whisper.cpp's own file layout (read as its whisper_model_load reads it): hyperparameters, the mel filterbank, raw
 * vocabulary bytes (a token may hold part of a UTF-8 character), then unaligned tensors in ggml's dimension order;
 * and files cut short or carrying types the engine does not read, refused with the offset and what was expected.
 */
class GgmlWhisperReadTest {
    @TempDir
    Path dir;

    private final SplittableRandom random = new SplittableRandom();

    /** The bytes of a file: 11 hparams, filters [2, 3], vocabulary, then an F32 [2, 3] and an F16 [5] tensor. */
    private byte[] file(float[] filters, float[] a, float[] b, int typeOfB) {
        Out out = new Out();
        out.i32(0x67676d6c);
        for (int h : new int[] {51865, 1500, 8, 2, 1, 448, 8, 2, 1, 2, 1}) out.i32(h);
        out.i32(2);
        out.i32(3);
        for (float f : filters) out.f32(f);
        List<byte[]> vocab =
                List.of("!".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xe4, (byte) 0xbd}, new byte[0]);
        out.i32(vocab.size());
        for (byte[] t : vocab) {
            out.i32(t.length);
            out.bytes(t);
        }
        tensor(out, "encoder.conv1.bias", 0, new int[] {3, 2}, a); // ggml order: ne0 = 3 innermost
        tensor(out, "x", typeOfB, new int[] {5}, b);
        return out.toByteArray();
    }

    private static void tensor(Out out, String name, int type, int[] ne, float[] v) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        out.i32(ne.length);
        out.i32(n.length);
        out.i32(type);
        for (int d : ne) out.i32(d);
        out.bytes(n);
        for (float f : v) {
            if (type == 1) {
                short h = Float.floatToFloat16(f);
                out.bytes(new byte[] {(byte) h, (byte) (h >> 8)});
            } else {
                out.f32(f);
            }
        }
    }

    private float[] values(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) (random.nextDouble() * 2 - 1);
        return v;
    }

    @Test
    void readsHyperparametersFiltersVocabularyAndUnalignedTensors() throws Exception {
        float[] filters = values(6), a = values(6), b = values(5);
        for (int i = 0; i < b.length; i++) b[i] = Float.float16ToFloat(Float.floatToFloat16(b[i]));
        Path p = dir.resolve("ggml-tiny.bin"); // no .gguf or .safetensors name: told apart by the magic
        Files.write(p, file(filters, a, b, 1));
        try (WeightFile f = WeightFiles.open(p)) {
            assertThat(f.format()).isEqualTo(WeightFormat.GGML_WHISPER);
            Map<String, Object> m = f.metadata();
            assertThat(m.get("whisper.n_vocab")).isEqualTo(51865);
            assertThat(m.get("whisper.n_mels")).isEqualTo(2);
            assertThat(m.get("whisper.ftype")).isEqualTo(1);
            @SuppressWarnings("unchecked")
            List<byte[]> vocab = (List<byte[]>) m.get("whisper.vocab");
            assertThat(vocab).hasSize(3);
            assertThat(vocab.get(1)).containsExactly((byte) 0xe4, (byte) 0xbd);
            assertThat(vocab.get(2)).isEmpty();
            assertThat(f.names()).containsExactly("whisper.mel_filters", "encoder.conv1.bias", "x");
            HostTensor mel = f.get("whisper.mel_filters"), ta = f.get("encoder.conv1.bias"), tb = f.get("x");
            assertThat(mel.shape()).isEqualTo(Shape.of(2, 3));
            assertThat(mel.toFloatArray()).containsExactly(filters);
            assertThat(ta.shape()).isEqualTo(Shape.of(2, 3));
            assertThat(ta.toFloatArray()).containsExactly(a);
            assertThat(tb.dtype()).isEqualTo(DType.F16);
            assertThat(tb.toFloatArray()).containsExactly(b);
            for (String n : f.names())
                assertThat(f.info(n).fileOffset() % 64).as(n + " aligned").isZero();
        }
    }

    @Test
    void refusesTruncatedFilesAndUnreadTypesSayingWhere() throws Exception {
        byte[] whole = file(values(6), values(6), values(5), 1);
        for (int cut : new int[] {2, 30, 60, 80, whole.length - 3}) {
            Path p = dir.resolve("cut" + cut + ".bin");
            Files.write(p, Arrays.copyOf(whole, cut));
            assertThatThrownBy(() -> WeightFiles.open(p)).as("cut at " + cut).isInstanceOf(WeightFormatException.class);
        }
        Path q = dir.resolve("q4k.bin");
        Files.write(q, file(values(6), values(6), values(5), 12)); // Q4_K rows of 6 values: not whole super-blocks
        assertThatThrownBy(() -> WeightFiles.open(q))
                .isInstanceOf(WeightFormatException.class)
                .hasMessageContaining("tensor 'x'")
                .hasMessageContaining("Q4_K");
    }

    private static final class Out extends ByteArrayOutputStream {
        void i32(int v) {
            writeBytes(ByteBuffer.allocate(4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(v)
                    .array());
        }

        void f32(float v) {
            writeBytes(ByteBuffer.allocate(4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putFloat(v)
                    .array());
        }

        void bytes(byte[] b) {
            writeBytes(b);
        }
    }
}
