package dev.audioengine.models.whisper;

import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes one seeded random Whisper in both layouts plus a test audio file, for runs outside the unit tests: the
 * transformers reference (scripts/gpu/whisper-transformers-reference.py reads the folder it writes), and trying the
 * command line by hand. Run from the models module with the test class path:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *     dev.audioengine.models.whisper.WhisperFixtureWriter OUT_DIR [SEED] [WIDTH HEADS ENCODER_LAYERS DECODER_LAYERS]
 * </pre>
 *
 * OUT_DIR gets ggml-random-f16.bin, ggml-random-f32.bin, hf/ (config.json, model.safetensors, tokenizer.json, the F16
 * file's values in F32), audio.wav (5 s, 16-bit) and fixture.txt (the seed and geometry).
 */
final class WhisperFixtureWriter {
    private WhisperFixtureWriter() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        int d = args.length > 2 ? Integer.parseInt(args[2]) : 64,
                heads = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        int enc = args.length > 4 ? Integer.parseInt(args[4]) : 2,
                dec = args.length > 5 ? Integer.parseInt(args[5]) : 2;
        WhisperConfig c = new WhisperConfig(51865, 1500, d, heads, enc, 448, d, heads, dec, 80);
        Files.createDirectories(out);
        GgmlWriter f16 = new GgmlWriter(c, true, seed, 4 + 14);
        f16.write(out.resolve("ggml-random-f16.bin"), Gpt2Vocabulary.bytes());
        new GgmlWriter(c, false, seed, 4 + 14).write(out.resolve("ggml-random-f32.bin"), Gpt2Vocabulary.bytes());
        TransformersLayout.write(f16, out.resolve("hf"), Gpt2Vocabulary.encoderJson());
        WhisperCppParityTest.writeWav(out.resolve("audio.wav"), WhisperCppParityTest.audio(seed, 5 * 16000 + 123));
        Files.writeString(out.resolve("fixture.txt"), "seed " + seed + "\nconfig " + c + "\n");
        System.out.println("wrote " + out + " (seed " + seed + ", " + c + ")");
    }
}
