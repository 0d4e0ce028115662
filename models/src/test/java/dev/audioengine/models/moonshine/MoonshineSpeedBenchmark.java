package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Moonshine on the engine's CPU backend beside ONNX Runtime Java on the same npm files, in one process: the total
 * time to transcribe Debian's 10 recordings (encoder + greedy decoding, models loaded once, each recording as one
 * window as moonshine-js decodes it), the two interleaved round by round, median of the rounds. ORT is a test-scope
 * dependency only, so this is a main class, not a CLI command. Both wall time and the process's CPU time (every
 * thread, ONNX Runtime's native ones included) are reported: on a loaded machine the second is the fairer ratio.
 * <pre>scripts/peers/bench-asr-vs-ort [tiny|base] [threads] [rounds]</pre>
 */
public final class MoonshineSpeedBenchmark {
    private MoonshineSpeedBenchmark() {}

    public static void main(String[] args) throws Exception {
        String size = args.length > 0 ? args[0] : "tiny";
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String caps = args.length > 3 ? args[3] : "";
        MoonshineCheckpoint files = size.equals("base") ? MoonshineFixtures.base() : MoonshineFixtures.tiny();
        List<MoonshineFixtures.Utterance> set = MoonshineFixtures.debianSet();
        double audio =
                set.stream().mapToDouble(MoonshineFixtures.Utterance::seconds).sum();
        AudioEngine.Builder b = AudioEngine.builder().backend("cpu").threads(threads);
        if (!caps.isEmpty()) b.capability(caps.split(","));
        try (AudioEngine engine = b.build();
                MoonshineModel ours = MoonshineModel.load(engine, files, MoonshineFixtures.tokenizer());
                OrtMoonshine ort = new OrtMoonshine(files, ours.config(), threads)) {
            System.out.printf(
                    Locale.ROOT,
                    "moonshine-%s, %d recordings, %.1f s of audio, %d thread(s), engine %s%n",
                    size,
                    set.size(),
                    audio,
                    threads,
                    engine.effectiveCapabilities(MoonshineModel.USES));
            long[] oursTokens = new long[1];
            for (int warm = 0; warm < 2; warm++) {
                runOurs(ours, set, oursTokens);
                runOrt(ort, set);
            }
            double[] o = new double[rounds],
                    r = new double[rounds],
                    ratio = new double[rounds],
                    cpuRatio = new double[rounds];
            for (int i = 0; i < rounds; i++) {
                long c0 = cpuNanos();
                o[i] = runOurs(ours, set, oursTokens);
                long c1 = cpuNanos();
                r[i] = runOrt(ort, set);
                long c2 = cpuNanos();
                ratio[i] = o[i] / r[i];
                cpuRatio[i] = (c1 - c0) / (double) (c2 - c1);
                System.out.printf(
                        Locale.ROOT,
                        "round %d: engine %.3f s (CPU %.3f s), ONNX Runtime %.3f s (CPU %.3f s), ratio %.3f (CPU time %.3f)%n",
                        i + 1,
                        o[i],
                        (c1 - c0) / 1e9,
                        r[i],
                        (c2 - c1) / 1e9,
                        ratio[i],
                        cpuRatio[i]);
            }
            System.out.printf(
                    Locale.ROOT,
                    "median ratio of the process's CPU time (all threads; what a shared machine's load does not inflate): %.3f%n",
                    median(cpuRatio));
            System.out.printf(
                    Locale.ROOT,
                    "median: engine %.3f s (%.1fx real time, %.2f ms/token over %d tokens), ONNX Runtime %.3f s, "
                            + "engine/ORT %.3f (median of per-round ratios)%n",
                    median(o),
                    audio / median(o),
                    1000 * median(o) / oursTokens[0],
                    oursTokens[0],
                    median(r),
                    median(ratio));
        }
    }

    private static double runOurs(MoonshineModel m, List<MoonshineFixtures.Utterance> set, long[] tokens) {
        long t0 = System.nanoTime(), n = 0;
        for (MoonshineFixtures.Utterance u : set) {
            n += m.decode(u.samples(), 0, u.samples().length, (int) (u.seconds() * 6), u.samples().length)
                    .tokens()
                    .size();
        }
        tokens[0] = n;
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double runOrt(OrtMoonshine ort, List<MoonshineFixtures.Utterance> set) throws Exception {
        long t0 = System.nanoTime();
        for (MoonshineFixtures.Utterance u : set) ort.transcribe(u.samples());
        return (System.nanoTime() - t0) / 1e9;
    }

    /** The process's CPU time so far, every thread (ProcessHandle: java.base, which this module already reads). */
    private static long cpuNanos() {
        return ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("no process CPU time here"))
                .toNanos();
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
