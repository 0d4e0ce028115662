package dev.audioengine.models.kokoro;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.SpeechSynthesizer.SpeechPiece;
import dev.audioengine.model.task.SynthesisOptions;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Kokoro on the engine's CPU backend beside ONNX Runtime Java on the same npm file, in one process: the total time
 * to say {@link #SENTENCES}, the engine through {@link KokoroSynthesizer} (text → espeak-ng → ids → audio, front end
 * included), ORT on the phoneme ids and style rows the engine's front end produced (its model only). Models are
 * loaded once; two warm-up rounds each, then the two interleaved round by round; wall time and the process's CPU time
 * (every thread, ORT's native ones included: on a shared machine the fairer ratio), medians of the rounds.
 * <pre>scripts/peers/bench-tts-vs-ort [threads] [rounds] [capability switches, e.g. -bf16_weights] [--dump FILE] [--engine-only]</pre>
 * {@code --dump FILE} writes the engine's audio of every sentence (int count, then floats per sentence) to compare
 * builds: a kernel change must not move it beyond float rounding. {@code --engine-only} skips ONNX Runtime (to profile).
 */
public final class KokoroSpeedBenchmark {
    /** Varied text: a pangram, questions, numbers and a date, money, names. */
    static final List<String> SENTENCES = List.of(
            "The quick brown fox jumps over the lazy dog.",
            "Is this the right way to the station?",
            "Doctor Smith arrived at 10:45 on March 3rd, 2024.",
            "It costs $19.99, or about 18 euros.",
            "Marie Curie and Ada Lovelace changed science.",
            "Wait, what did you just say?");

    private static final String VOICE = "af_heart";

    private KokoroSpeedBenchmark() {}

    /** One piece ORT is given: the engine front end's ids and the voice's style row for them. */
    private record Input(long[] ids, float[] style) {}

    public static void main(String[] args) throws Exception {
        List<String> rest = new ArrayList<>(List.of(args));
        Path dump = null;
        int d = rest.indexOf("--dump");
        if (d >= 0) {
            dump = Path.of(rest.get(d + 1));
            rest.subList(d, d + 2).clear();
        }
        boolean engineOnly = rest.remove("--engine-only");
        int threads = rest.size() > 0 ? Integer.parseInt(rest.get(0)) : 1;
        int rounds = rest.size() > 1 ? Integer.parseInt(rest.get(1)) : 5;
        String caps = rest.size() > 2 ? rest.get(2) : "";
        AudioEngine.Builder b = AudioEngine.builder().backend("cpu").threads(threads);
        if (!caps.isEmpty()) b.capability(caps.split(","));
        long load0 = System.nanoTime(), loadCpu0 = cpuNanos();
        try (AudioEngine engine = b.build();
                KokoroSynthesizer ours = KokoroSynthesizer.load(
                        engine, KokoroFixtures.model(), KokoroFixtures.tokenizer(), KokoroFixtures::voice, "kokoro");
                OrtKokoro ort = engineOnly ? null : new OrtKokoro(KokoroFixtures.model(), threads)) {
            double loadS = (System.nanoTime() - load0) / 1e9, loadCpuS = (cpuNanos() - loadCpu0) / 1e9;
            KokoroVocabulary vocab = KokoroVocabulary.read(KokoroFixtures.tokenizer());
            KokoroVoice voice = KokoroVoice.read(VOICE, KokoroFixtures.voice(VOICE));
            SynthesisOptions options = new SynthesisOptions(VOICE, 1.0);
            List<Input> inputs = new ArrayList<>();
            List<float[]> audio = new ArrayList<>();
            long c0 = cpuNanos(), t0 = System.nanoTime();
            for (String s : SENTENCES) {
                for (Iterator<SpeechPiece> it = ours.stream(new StringReader(s), options); it.hasNext(); ) {
                    SpeechPiece p = it.next();
                    long[] ids = vocab.encode(p.phonemes());
                    inputs.add(new Input(ids, voice.style(ids.length - 2)));
                    audio.add(p.samples());
                }
            }
            double firstS = (System.nanoTime() - t0) / 1e9, firstCpuS = (cpuNanos() - c0) / 1e9;
            double seconds = audio.stream().mapToInt(a -> a.length).sum() / (double) KokoroModel.SAMPLE_RATE;
            System.out.printf(
                    Locale.ROOT,
                    "kokoro, %d sentences (%d pieces, %.2f s of audio), voice %s, %d thread(s), engine %s, load average %.2f%n",
                    SENTENCES.size(),
                    inputs.size(),
                    seconds,
                    VOICE,
                    threads,
                    engine.effectiveCapabilities(KokoroModel.USES),
                    loadAverage());
            System.out.printf(
                    Locale.ROOT,
                    "engine cold: load %.2f s (CPU %.2f s), first round %.2f s (CPU %.2f s: graph compiles, JIT)%n",
                    loadS,
                    loadCpuS,
                    firstS,
                    firstCpuS);
            // the dump is of a warm round: a cold one runs part of the Vector API's transcendentals in its Java
            // fallback,
            // whose last bit differs from the compiled intrinsics', and the network amplifies that
            List<float[]> warmAudio = new ArrayList<>();
            runOurs(ours, options, warmAudio);
            if (dump != null) write(dump, warmAudio);
            if (engineOnly) {
                for (int i = 0; i < rounds; i++) {
                    long a = cpuNanos();
                    double w = runOurs(ours, options, null);
                    System.out.printf(
                            Locale.ROOT,
                            "round %d: engine %.3f s (CPU %.3f s), load %.2f%n",
                            i + 1,
                            w,
                            (cpuNanos() - a) / 1e9,
                            loadAverage());
                }
                return;
            }
            for (int warm = 0; warm < 2; warm++) runOrt(ort, inputs);
            double[] o = new double[rounds], r = new double[rounds], oc = new double[rounds], rc = new double[rounds];
            double[] ratio = new double[rounds], cpuRatio = new double[rounds];
            for (int i = 0; i < rounds; i++) {
                long a = cpuNanos();
                o[i] = runOurs(ours, options, null);
                long m = cpuNanos();
                r[i] = runOrt(ort, inputs);
                long e = cpuNanos();
                oc[i] = (m - a) / 1e9;
                rc[i] = (e - m) / 1e9;
                ratio[i] = o[i] / r[i];
                cpuRatio[i] = oc[i] / rc[i];
                System.out.printf(
                        Locale.ROOT,
                        "round %d: engine %.3f s (CPU %.3f s), ONNX Runtime %.3f s (CPU %.3f s), ratio %.3f (CPU time %.3f), load %.2f%n",
                        i + 1,
                        o[i],
                        oc[i],
                        r[i],
                        rc[i],
                        ratio[i],
                        cpuRatio[i],
                        loadAverage());
            }
            System.out.printf(
                    Locale.ROOT,
                    "median: engine %.3f s (CPU %.3f s, %.2fx real time), ONNX Runtime %.3f s (CPU %.3f s, %.2fx real time)%n",
                    median(o),
                    median(oc),
                    seconds / median(o),
                    median(r),
                    median(rc),
                    seconds / median(r));
            System.out.printf(
                    Locale.ROOT,
                    "median engine/ORT ratio: CPU time %.3f, wall %.3f (medians of per-round ratios)%n",
                    median(cpuRatio),
                    median(ratio));
        }
    }

    /** Says every sentence; the audio of each piece into {@code audio} unless null. */
    private static double runOurs(KokoroSynthesizer tts, SynthesisOptions options, List<float[]> audio) {
        long t0 = System.nanoTime();
        for (String s : SENTENCES) {
            for (Iterator<SpeechPiece> it = tts.stream(new StringReader(s), options); it.hasNext(); ) {
                float[] samples = it.next().samples();
                if (audio != null) audio.add(samples);
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double runOrt(OrtKokoro ort, List<Input> inputs) throws Exception {
        long t0 = System.nanoTime();
        for (Input in : inputs) ort.run(in.ids(), in.style(), 1f);
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void write(Path file, List<float[]> audio) throws IOException {
        try (DataOutputStream out =
                new DataOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(file)))) {
            out.writeInt(audio.size());
            for (float[] a : audio) {
                out.writeInt(a.length);
                for (float v : a) out.writeFloat(v);
            }
        }
    }

    /** The process's CPU time so far, every thread. */
    private static long cpuNanos() {
        return ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("no process CPU time here"))
                .toNanos();
    }

    /** The one-minute load average (Linux's /proc/loadavg; NaN elsewhere): other work on a shared machine inflates wall time. */
    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
