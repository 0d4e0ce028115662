package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.models.json.ModelJson;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The engine's Whisper against transformers' WhisperForConditionalGeneration on the same weights: the folder that
 * scripts/gpu/whisper-transformers-reference.py filled (the model in transformers' layout plus reference-encoder.f32,
 * reference-logits.f32 and reference.json), named by {@code -Dwhisper.transformers.reference=FOLDER}; the audio is
 * {@code -Dwhisper.transformers.wav} or audio.wav beside the folder (as WhisperFixtureWriter lays them out). Encoder
 * states and teacher-forced logits within 1e-4 of the largest reference value. Skipped without the folder: the
 * reference needs torch and transformers, which the GPU machine has (docs/WHISPER.md).
 */
class WhisperTransformersReferenceTest {
    @Test
    void encoderStatesAndLogitsMatchTransformers() throws Exception {
        String folderName = System.getProperty("whisper.transformers.reference");
        Assumptions.assumeTrue(folderName != null, "no -Dwhisper.transformers.reference folder");
        Path folder = Path.of(folderName);
        compare(
                folder,
                Path.of(System.getProperty(
                        "whisper.transformers.wav",
                        folder.toAbsolutePath().getParent().resolve("audio.wav").toString())));
    }

    /**
     * The reference transformers computed on the GPU machine (H100, 2026-12-06) for WhisperFixtureWriter's seed 11
     * (d 64, 4 heads, 2+2 layers, the multilingual vocabulary), committed under whisper/transformers-seed11: the
     * fixture is written again here from its seed, so CI checks the engine against transformers without torch.
     */
    @Test
    void committedTransformersReferenceOfSeed11(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        WhisperFixtureWriter.main(new String[] {dir.toString(), "11"});
        for (String name : List.of("reference.json", "reference-encoder.f32", "reference-logits.f32")) {
            try (var in = WhisperTransformersReferenceTest.class.getResourceAsStream(
                    "/whisper/transformers-seed11/" + name)) {
                Files.copy(
                        java.util.Objects.requireNonNull(in, name),
                        dir.resolve("hf").resolve(name));
            }
        }
        compare(dir.resolve("hf"), dir.resolve("audio.wav"));
    }

    private static void compare(Path folder, Path wav) throws Exception {
        Map<?, ?> meta = (Map<?, ?>)
                ModelJson.read(folder.resolve("reference.json"), Files.readAllBytes(folder.resolve("reference.json")));
        float[] audio = readWav(wav);
        int[] ids = ((List<?>) meta.get("decoder_input_ids"))
                .stream().mapToInt(o -> ((Number) o).intValue()).toArray();
        float[] encoder = floats(folder.resolve("reference-encoder.f32"));
        float[] logits = floats(folder.resolve("reference-logits.f32"));
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel model = WhisperModel.load(engine, folder)) {
            try (HostTensor states = model.encoderStates(audio)) {
                WhisperLayoutsTest.assertClose("encoder states vs transformers", states.toFloatArray(), encoder, 1e-4);
            }
            WhisperLayoutsTest.assertClose(
                    "teacher-forced logits vs transformers", model.teacherForcedLogits(audio, ids), logits, 1e-4);
        }
    }

    static float[] floats(Path file) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[b.remaining() / 4];
        b.asFloatBuffer().get(out);
        return out;
    }

    /** A 16 kHz mono 16-bit WAV with a 44-byte header, as WhisperCppParityTest.writeWav writes it. */
    static float[] readWav(Path file) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        b.position(44);
        float[] out = new float[b.remaining() / 2];
        for (int i = 0; i < out.length; i++) out[i] = b.getShort() / 32768f;
        return out;
    }
}
