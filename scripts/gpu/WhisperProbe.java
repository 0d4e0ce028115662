import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.models.whisper.WhisperModel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 30's transformers check at the released geometries, on the GPU machine, where the weights are made: a folder
 * that scripts/gpu/whisper-transformers-reference.py --random SIZE wrote (transformers' save_pretrained of seeded
 * random weights, plus reference-encoder.f32, reference-logits.f32 and reference.json: WhisperForConditionalGeneration's
 * encoder states and teacher-forced logits, fp32, TF32 off) is loaded by the engine on each backend named, which
 * computes the same two things from the same WAV; each must lie within 1e-4 of the reference's largest |value|
 * (models' WhisperTransformersReferenceTest does the same on the committed small fixture in CI). The weights cannot
 * travel back from that machine (tiny's alone is 150 MB), so the engine's side runs there.
 * <pre>
 * java --add-modules ALL-SYSTEM -cp PROBE_DIR WhisperProbe FOLDER WAV cpu cuda ...
 * </pre>
 * Prints one line per backend and quantity (largest difference, the reference's largest value, their ratio, PASS or
 * FAIL); exits 1 when any fails.
 */
public final class WhisperProbe {
    static final double TOLERANCE = 1e-4;

    public static void main(String[] args) throws Exception {
        if (args.length < 3) throw new IllegalArgumentException("usage: WhisperProbe FOLDER WAV BACKEND...");
        Path folder = Path.of(args[0]);
        AudioClip clip = WavReader.read(Path.of(args[1]));
        if (clip.sampleRate() != 16000) throw new IllegalArgumentException(args[1] + " is not 16 kHz");
        float[] audio = clip.samples();
        String meta = Files.readString(folder.resolve("reference.json"));
        Matcher m = Pattern.compile("\"decoder_input_ids\"\\s*:\\s*\\[([^\\]]*)\\]").matcher(meta);
        if (!m.find()) throw new IllegalArgumentException("no decoder_input_ids in " + folder.resolve("reference.json"));
        int[] ids = Arrays.stream(m.group(1).split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray();
        float[] encoder = floats(folder.resolve("reference-encoder.f32"));
        float[] logits = floats(folder.resolve("reference-logits.f32"));
        int failures = 0;
        for (int i = 2; i < args.length; i++) {
            String backend = args[i];
            AudioEngine.Builder b = AudioEngine.builder().backend(backend);
            if (!backend.equals("cpu")) b.fallback(FallbackPolicy.FAIL);
            long t0 = System.nanoTime();
            try (AudioEngine engine = b.build();
                    WhisperModel model = WhisperModel.load(engine, folder)) {
                try (HostTensor states = model.encoderStates(audio)) {
                    failures += compare(folder, backend, "encoder states", states.toFloatArray(), encoder);
                }
                failures += compare(folder, backend, "teacher-forced logits", model.teacherForcedLogits(audio, ids), logits);
            }
            System.out.printf(Locale.ROOT, "%s %s: %.1f s (load and both passes)%n",
                    folder.getFileName(), backend, (System.nanoTime() - t0) / 1e9);
        }
        System.out.println(failures == 0 ? "all within " + TOLERANCE : failures + " failed");
        System.exit(failures == 0 ? 0 : 1);
    }

    static int compare(Path folder, String backend, String what, float[] engine, float[] reference) {
        if (engine.length != reference.length) {
            System.out.printf(Locale.ROOT, "%s %s %s: %d values, the reference has %d FAIL%n",
                    folder.getFileName(), backend, what, engine.length, reference.length);
            return 1;
        }
        double worst = 0, scale = 0;
        for (int i = 0; i < engine.length; i++) {
            worst = Math.max(worst, Math.abs(engine[i] - (double) reference[i]));
            scale = Math.max(scale, Math.abs(reference[i]));
        }
        boolean ok = worst <= TOLERANCE * Math.max(1, scale) && Double.isFinite(worst);
        System.out.printf(Locale.ROOT, "%s %s %s: largest difference %.3g, largest |reference| %.4g, ratio %.3g %s%n",
                folder.getFileName(), backend, what, worst, scale, worst / Math.max(1, scale), ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    }

    static float[] floats(Path file) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[b.remaining() / 4];
        b.asFloatBuffer().get(out);
        return out;
    }
}
