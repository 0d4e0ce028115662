import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.models.moonshine.MoonshineCheckpoint;
import dev.audioengine.models.moonshine.MoonshineModel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Moonshine on each backend, for the GPU evidence (docs/PERFORMANCE.md, scripts/gpu/moonshine-gpu-evidence.sh).
 * <pre>
 * java -p app-cli/target/dist/lib --add-modules ALL-MODULE-PATH -cp CLASSES MoonshineProbe parity MODEL_DIR TOKENIZER WAV... -- TARGET...
 * java ... MoonshineProbe speed HF_DIR TOKENIZER WAV TOKENS ROUNDS -- TARGET...
 * </pre>
 * TARGET is cpu, cuda, cuda:graphs=off, vulkan, optionally with +fused_attention style switches after a comma
 * (cuda,-fused_attention) and a weight type after '@' (cuda@BF16; default: the family's). Every GPU target runs with
 * --fallback fail.
 * <ul>
 * <li>parity: per target, each recording's greedy transcript and, teacher-forced on the first target's tokens, the
 *     largest logit difference from the first target (the CPU).</li>
 * <li>speed: per target, the encoder's time and the time for exactly TOKENS decoder steps (EOS ignored: random
 *     weights), medians of ROUNDS, and the decoder's weight bytes read per step.</li>
 * </ul>
 */
public final class MoonshineProbe {
    public static void main(String[] args) throws Exception {
        int sep = Arrays.asList(args).indexOf("--");
        List<String> in = Arrays.asList(args).subList(1, sep), targets = Arrays.asList(args).subList(sep + 1, args.length);
        switch (args[0]) {
            case "parity" -> parity(Path.of(in.get(0)), Path.of(in.get(1)), in.subList(2, in.size()), targets);
            case "speed" -> speed(Path.of(in.get(0)), Path.of(in.get(1)), Path.of(in.get(2)), Integer.parseInt(in.get(3)), Integer.parseInt(in.get(4)), targets);
            default -> throw new IllegalArgumentException("parity or speed, not " + args[0]);
        }
    }

    /** The weight type after '@' (cuda@BF16), or null for the family's default. */
    static DType weightType(String target) {
        int at = target.indexOf('@');
        return at < 0 ? null : DType.valueOf(target.substring(at + 1));
    }

    static MoonshineModel load(AudioEngine e, Path model, Path tokenizer, String target) throws Exception {
        DType wt = weightType(target);
        MoonshineCheckpoint c = MoonshineCheckpoint.inFolder(model);
        return wt == null ? MoonshineModel.load(e, c, tokenizer) : MoonshineModel.load(e, c, tokenizer, wt);
    }

    static AudioEngine engine(String target) {
        String[] parts = (target.indexOf('@') < 0 ? target : target.substring(0, target.indexOf('@'))).split(",");
        String[] backendAndOption = parts[0].split(":");
        AudioEngine.Builder b = AudioEngine.builder().backend(backendAndOption[0]);
        if (backendAndOption.length > 1) {
            String[] kv = backendAndOption[1].split("=");
            b.option(backendAndOption[0] + "." + kv[0], kv[1]);
        }
        if (!backendAndOption[0].equals("cpu")) b.fallback(FallbackPolicy.FAIL);
        for (int i = 1; i < parts.length; i++) b.capability(parts[i]);
        return b.build();
    }

    static float[] audio(String wav) throws Exception {
        AudioClip c = WavReader.read(Path.of(wav));
        if (c.sampleRate() != 16000) throw new IllegalArgumentException(wav + " is not 16 kHz");
        return c.samples();
    }

    static void parity(Path model, Path tokenizer, List<String> wavs, List<String> targets) throws Exception {
        Map<String, int[]> referenceTokens = new LinkedHashMap<>();
        Map<String, float[]> referenceLogits = new LinkedHashMap<>();
        Map<String, String> referenceText = new LinkedHashMap<>();
        boolean ok = true;
        for (String target : targets) {
            try (AudioEngine e = engine(target); MoonshineModel m = load(e, model, tokenizer, target)) {
                double worst = 0;
                int same = 0;
                for (String wav : wavs) {
                    float[] a = audio(wav);
                    MoonshineModel.Decoded d = m.decode(a, 0, a.length, (int) (a.length / 16000.0 * 6), a.length);
                    if (!referenceTokens.containsKey(wav)) {
                        int[] forced = new int[d.tokens().size() + 1];
                        forced[0] = 1;
                        for (int i = 0; i < d.tokens().size(); i++) forced[i + 1] = d.tokens().get(i);
                        referenceTokens.put(wav, forced);
                        referenceText.put(wav, d.text());
                    }
                    float[] logits = m.teacherForcedLogits(a, referenceTokens.get(wav));
                    if (!referenceLogits.containsKey(wav)) referenceLogits.put(wav, logits);
                    float[] ref = referenceLogits.get(wav);
                    double diff = 0, scale = 0;
                    for (int i = 0; i < ref.length; i++) {
                        diff = Math.max(diff, Math.abs(logits[i] - ref[i]));
                        scale = Math.max(scale, Math.abs(ref[i]));
                    }
                    worst = Math.max(worst, diff / scale);
                    boolean equal = d.text().equals(referenceText.get(wav));
                    if (equal) same++;
                    System.out.printf(Locale.ROOT, "%-28s %-40s %s \"%s\" (logits: max |diff| %.2e, %.2e of the largest)%n", target,
                            Path.of(wav).getFileName(), equal ? "same" : "DIFFERENT", d.text(), diff, diff / scale);
                }
                // logits within 1e-3 of the largest where the weights are the same; another weight type only keeps the transcripts
                boolean sameWeights = java.util.Objects.equals(weightType(target), weightType(targets.getFirst()));
                boolean pass = same == wavs.size() && (!sameWeights || worst <= 1e-3);
                ok &= pass;
                System.out.printf(Locale.ROOT, "%s: %s, transcripts equal to %s's on %d of %d recordings, logits within %.2e of the largest logit; %s%n",
                        target, pass ? "PASS" : "FAIL", targets.getFirst(), same, wavs.size(), worst, m.runSummary().map(Object::toString).orElse(""));
            }
        }
        if (!ok) System.exit(1);
    }

    static void speed(Path hf, Path tokenizer, Path wav, int tokens, int rounds, List<String> targets) throws Exception {
        float[] a = audio(wav.toString());
        for (String target : targets) {
            for (DType wt : weightType(target) != null ? List.of(weightType(target)) : List.of(DType.F32, DType.BF16, DType.Q8_0)) {
                try (AudioEngine e = engine(target); MoonshineModel m = MoonshineModel.load(e, MoonshineCheckpoint.inFolder(hf), tokenizer, wt)) {
                    for (int w = 0; w < 3; w++) m.decodeExactly(a, tokens);
                    double[] total = new double[rounds], encoder = new double[rounds];
                    for (int r = 0; r < rounds; r++) {
                        long t0 = System.nanoTime();
                        m.decodeExactly(a, 1);
                        long t1 = System.nanoTime();
                        m.decodeExactly(a, tokens);
                        long t2 = System.nanoTime();
                        encoder[r] = (t1 - t0) / 1e6;
                        total[r] = (t2 - t1) / 1e6;
                    }
                    double enc = median(encoder), all = median(total);
                    var c = m.config();
                    long d = c.hidden(), perLayer = 4 * d * d + 2 * d * d + 2L * c.intermediate() * d + (long) c.intermediate() * d;
                    long params = c.decoderLayers() * perLayer + (long) c.vocabulary() * d;
                    long bytes = wt == DType.Q8_0 ? params / 32 * 34 : params * (wt == DType.F32 ? 4 : 2);
                    System.out.printf(Locale.ROOT, "%s %s weights: %.1f s audio, end to end %.2f ms (encoder + 1 step %.2f ms), %d tokens, "
                                    + "%.3f ms/token over the steps after the first; decoder weights read per step %.1f MB; %s%n", target, wt, a.length / 16000.0,
                            all, enc, tokens, (all - enc) / (tokens - 1), bytes / 1e6, m.runSummary().map(Object::toString).orElse(""));
                } catch (RuntimeException e) {
                    System.out.printf("%s %s weights: FAILED %s%n", target, wt, e);
                }
            }
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
