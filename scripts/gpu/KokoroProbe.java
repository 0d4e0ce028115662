import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.model.task.SpeechSynthesizer.SpeechAudio;
import dev.audioengine.model.task.SynthesisOptions;
import dev.audioengine.models.kokoro.KokoroModel;
import dev.audioengine.models.kokoro.KokoroSynthesizer;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import dev.audioengine.models.kokoro.KokoroVoice;
import dev.audioengine.models.kokoro.text.KokoroPhonemizer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Kokoro on each backend, for the GPU evidence (docs/PERFORMANCE.md, scripts/gpu/kokoro-gpu-evidence.sh).
 * <pre>
 * java -p LIB --add-modules ALL-MODULE-PATH -cp CLASSES KokoroProbe DIR ROUNDS -- TARGET...
 * </pre>
 * DIR holds the pinned kokoro-82m-quantized.onnx, kokoro-tokenizer.json and kokoro-voice-af_heart.bin (the model
 * store's names). TARGET is cpu, cuda, cuda:graphs=off or vulkan, optionally with capability switches after commas
 * (cuda,-fused_attention); GPU targets run with --fallback fail.
 * <ul>
 * <li>parity: per target, per sentence (espeak-ng front end, af_heart, speed 1), the durations equal to the first
 *     target's (the CPU) and the log-mel cosine against its audio.</li>
 * <li>speed: per target, the sentences synthesized one at a time through the library's {@code synthesize} (front end
 *     included, model loaded once), one warm-up round, then the median of ROUNDS: seconds, audio seconds, × real time.</li>
 * <li>with KOKORO_PROBE_CONCURRENT=1,2,4 (GPU targets): the same 8 sentences' networks on that many engines of the
 *     device at once, each its own stream and copy of the model, sentence i on engine i mod N: how much a GPU that runs
 *     one piece at a time leaves idle (issue 28; batching would also share the launches, which this does not). Wall time
 *     per round, median of ROUNDS after three warm rounds (graphs compiled and captured), and the largest difference
 *     of any sample from the one-engine audio.</li>
 * </ul>
 */
public final class KokoroProbe {
    static final String[] SENTENCES = {
            "The meeting starts at nine thirty on Monday morning.",
            "Can you call Doctor Smith before five o'clock?",
            "There are 24 hours in a day and 7 days in a week.",
            "Is it going to rain in London tomorrow?",
            "In 1995, my grandfather opened a small bakery.",
            "Professor Brown teaches physics at the university.",
            "We walked along the river until the sun went down.",
            "Our flight to Tokyo was delayed by 45 minutes."};

    public static void main(String[] args) throws Exception {
        int sep = Arrays.asList(args).indexOf("--");
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> targets = Arrays.asList(args).subList(sep + 1, args.length);
        Path model = dir.resolve("kokoro-82m-quantized.onnx"), tokenizer = dir.resolve("kokoro-tokenizer.json");
        KokoroVocabulary vocab = KokoroVocabulary.read(tokenizer);
        KokoroVoice heart = KokoroVoice.read("af_heart", dir.resolve("kokoro-voice-af_heart.bin"));
        KokoroPhonemizer phonemizer = KokoroPhonemizer.of("a", vocab);
        List<long[]> ids = new ArrayList<>();
        List<float[]> styles = new ArrayList<>();
        for (String s : SENTENCES) {
            String ph = phonemizer.phonemize(s).phonemes();
            ids.add(vocab.encode(ph));
            styles.add(heart.style(ph.length()));
        }
        String idsOut = System.getenv("KOKORO_PROBE_IDS");
        if (idsOut != null) { // the same inputs for ONNX Runtime's timing (scripts/kokoro-ort-speed.py)
            StringBuilder json = new StringBuilder("[");
            for (int i = 0; i < ids.size(); i++) {
                json.append(i == 0 ? "" : ",").append("{\"ids\":").append(Arrays.toString(ids.get(i))).append(",\"style\":")
                        .append(Arrays.toString(styles.get(i))).append('}');
            }
            java.nio.file.Files.writeString(Path.of(idsOut), json.append(']'));
        }
        List<int[]> refDurations = null;
        List<float[]> refAudio = null;
        boolean ok = true;
        for (String target : targets) {
            try (AudioEngine e = engine(target)) {
                long t0 = System.nanoTime();
                List<int[]> durations = new ArrayList<>();
                List<float[]> audio = new ArrayList<>();
                try (KokoroModel m = KokoroModel.load(e, model, vocab)) {
                    System.out.printf(Locale.ROOT, "[%s] loaded in %.1f s on %s, effective %s%n", target, (System.nanoTime() - t0) / 1e9,
                            e.backend().registryName(), e.effectiveCapabilities(KokoroModel.USES));
                    for (int i = 0; i < SENTENCES.length; i++) {
                        durations.add(m.durations(ids.get(i), styles.get(i), 1f).frames());
                        audio.add(m.waveform(ids.get(i), styles.get(i), 1f));
                    }
                    // the text graph (ALBERT, duration LSTMs) alone, then everything, on graphs already compiled
                    double text = 0, all = 0;
                    for (int i = 0; i < SENTENCES.length; i++) {
                        m.waveform(ids.get(i), styles.get(i), 1f); // compiles this length's three graphs
                        long t = System.nanoTime();
                        m.durations(ids.get(i), styles.get(i), 1f);
                        long u = System.nanoTime();
                        m.waveform(ids.get(i), styles.get(i), 1f);
                        text += (u - t) / 1e9;
                        all += (System.nanoTime() - u) / 1e9;
                    }
                    System.out.printf(Locale.ROOT, "[%s] per stage (graphs compiled): text graph %.3f s, whole waveform %.3f s for the %d sentences%n",
                            target, text, all, SENTENCES.length);
                }
                if (refDurations == null) {
                    refDurations = durations;
                    refAudio = audio;
                } else {
                    int same = 0, total = 0;
                    double worst = 1;
                    for (int i = 0; i < SENTENCES.length; i++) {
                        int[] a = durations.get(i), b = refDurations.get(i);
                        for (int j = 0; j < a.length; j++) if (a[j] == b[j]) same++;
                        total += a.length;
                        if (Arrays.equals(a, b)) worst = Math.min(worst, cosine(logMel(audio.get(i)), logMel(refAudio.get(i))));
                    }
                    boolean pass = same >= 0.98 * total && worst >= 0.98;
                    ok &= pass;
                    System.out.printf(Locale.ROOT, "[%s] %s durations equal to %s's on %d of %d phonemes; worst log-mel cosine %.5f%n", target,
                            pass ? "PASS" : "FAIL", targets.getFirst(), same, total, worst);
                }
                speed(e, target, model, tokenizer, dir, rounds);
            }
            String concurrent = System.getenv("KOKORO_PROBE_CONCURRENT");
            if (concurrent != null && !target.startsWith("cpu")) concurrent(target, model, vocab, ids, styles, rounds, concurrent);
        }
        System.out.println(ok ? "PARITY PASS" : "PARITY FAIL");
    }

    static void speed(AudioEngine e, String target, Path model, Path tokenizer, Path dir, int rounds) throws Exception {
        timed(e, target, model, tokenizer, dir, rounds);
    }

    /**
     * Where the synthesizing thread is, every 5 ms (the device machine's image has no JFR): the deepest frames in the
     * engine's or the JDK's code, counted; the largest counts printed.
     */
    record Sampler(Thread thread, java.util.Map<String, Integer> counts, java.util.Map<String, Integer> phases, Thread daemon) {
        static Sampler start(Thread target) {
            java.util.Map<String, Integer> counts = new java.util.concurrent.ConcurrentHashMap<>();
            java.util.Map<String, Integer> phases = new java.util.concurrent.ConcurrentHashMap<>();
            Thread d = Thread.ofPlatform().daemon().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    StackTraceElement[] st = target.getStackTrace();
                    StringBuilder key = new StringBuilder();
                    for (int i = 0, n = 0; i < st.length && n < 5; i++) {
                        String c = st[i].getClassName();
                        if (c.startsWith("dev.audioengine") || n > 0) {
                            key.append(n == 0 ? "" : " < ").append(c.substring(c.lastIndexOf('.') + 1)).append('.').append(st[i].getMethodName());
                            n++;
                        } else if (n == 0 && key.isEmpty()) key.append('[').append(st[i].getMethodName()).append("] ");
                    }
                    counts.merge(key.toString(), 1, Integer::sum);
                    // the phase: the innermost frame of the Kokoro family and the two calls below it
                    StringBuilder phase = new StringBuilder();
                    for (int i = 0; i < st.length; i++) {
                        if (!st[i].getClassName().contains(".kokoro.")) continue;
                        for (int j = i; j >= Math.max(0, i - 2); j--) {
                            String c = st[j].getClassName();
                            phase.append(j == i ? "" : " > ").append(c.substring(c.lastIndexOf('.') + 1)).append('.').append(st[j].getMethodName());
                        }
                        break;
                    }
                    phases.merge(phase.isEmpty() ? "(outside the family)" : phase.toString(), 1, Integer::sum);
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException ex) {
                        return;
                    }
                }
            });
            return new Sampler(target, counts, phases, d);
        }

        void report(String target) {
            daemon.interrupt();
            int total = counts.values().stream().mapToInt(Integer::intValue).sum();
            System.out.printf(Locale.ROOT, "[%s] samples: %d%n", target, total);
            counts.entrySet().stream().sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed()).limit(25)
                    .forEach(en -> System.out.printf(Locale.ROOT, "  %5.1f %%  %s%n", 100.0 * en.getValue() / total, en.getKey()));
            System.out.printf(Locale.ROOT, "[%s] by phase (the family's innermost frame > what it called):%n", target);
            phases.entrySet().stream().sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed()).limit(25)
                    .forEach(en -> System.out.printf(Locale.ROOT, "  %5.1f %%  %s%n", 100.0 * en.getValue() / total, en.getKey()));
        }
    }

    static void timed(AudioEngine e, String target, Path model, Path tokenizer, Path dir, int rounds) throws Exception {
        try (KokoroSynthesizer synth = KokoroSynthesizer.load(e, model, tokenizer, v -> dir.resolve("kokoro-voice-" + v + ".bin"), "kokoro-82m")) {
            // sampled from here: the rounds and the compile share, not the load
            Sampler sampler = System.getenv("KOKORO_PROBE_SAMPLE") != null ? Sampler.start(Thread.currentThread()) : null;
            try {
                rounds(synth, target, rounds);
            } finally {
                if (sampler != null) sampler.report(target);
            }
        }
    }

    static void rounds(KokoroSynthesizer synth, String target, int rounds) throws Exception {
        {
            SynthesisOptions o = new SynthesisOptions("af_heart", 1.0);
            double[] seconds = new double[rounds];
            double audio = 0;
            for (int r = -1; r < rounds; r++) {
                long t = System.nanoTime();
                double a = 0;
                for (String s : SENTENCES) {
                    SpeechAudio out = synth.synthesize(s, o);
                    a += out.samples().length / (double) out.sampleRate();
                }
                if (r >= 0) seconds[r] = (System.nanoTime() - t) / 1e9;
                audio = a;
            }
            Arrays.sort(seconds);
            double median = seconds[rounds / 2];
            System.out.printf(Locale.ROOT, "[%s] speed: %d sentences, %.2f s of audio in %.3f s (median of %d, min %.3f): %.1f x real time%n",
                    target, SENTENCES.length, audio, median, rounds, seconds[0], audio / median);
            // each sentence said twice in a row: the second finds its graphs compiled (a new length compiles anew)
            double first = 0, again = 0;
            for (String s : SENTENCES) {
                long t = System.nanoTime();
                synth.synthesize(s, o);
                long u = System.nanoTime();
                synth.synthesize(s, o);
                first += (u - t) / 1e9;
                again += (System.nanoTime() - u) / 1e9;
            }
            System.out.printf(Locale.ROOT, "[%s] compile share: each sentence %.3f s the first time, %.3f s said again (graphs reused): %.1f x real time then%n",
                    target, first, again, audio / again);
        }
    }

    static void concurrent(String target, Path model, KokoroVocabulary vocab, List<long[]> ids, List<float[]> styles,
            int rounds, String counts) throws Exception {
        float[][] alone = null;
        double one = 0;
        for (String c : counts.split(",")) {
            int n = Integer.parseInt(c.trim());
            List<AudioEngine> engines = new ArrayList<>();
            List<KokoroModel> models = new ArrayList<>();
            try {
                for (int k = 0; k < n; k++) {
                    engines.add(engine(target));
                    models.add(KokoroModel.load(engines.getLast(), model, vocab));
                }
                float[][] audio = new float[ids.size()][];
                double[] seconds = new double[rounds];
                for (int r = -3; r < rounds; r++) {
                    long t = System.nanoTime();
                    List<Thread> threads = new ArrayList<>();
                    java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
                    for (int k = 0; k < n; k++) {
                        int first = k;
                        KokoroModel m = models.get(k);
                        threads.add(Thread.ofPlatform().start(() -> {
                            try {
                                for (int i = first; i < ids.size(); i += n) audio[i] = m.waveform(ids.get(i), styles.get(i), 1f);
                            } catch (Throwable ex) {
                                failed.compareAndSet(null, ex);
                            }
                        }));
                    }
                    for (Thread th : threads) th.join();
                    if (failed.get() != null) throw new IllegalStateException("engine failed", failed.get());
                    if (r >= 0) seconds[r] = (System.nanoTime() - t) / 1e9;
                }
                Arrays.sort(seconds);
                double median = seconds[rounds / 2];
                double worst = 0;
                if (alone == null) {
                    alone = audio;
                    one = median;
                } else {
                    for (int i = 0; i < audio.length; i++) {
                        if (audio[i].length != alone[i].length) worst = Double.POSITIVE_INFINITY;
                        else for (int j = 0; j < audio[i].length; j++) worst = Math.max(worst, Math.abs(audio[i][j] - alone[i][j]));
                    }
                }
                System.out.printf(Locale.ROOT, "[%s] %d engine(s) at once: the %d sentences' networks in %.3f s (median of %d, min %.3f), %.2fx one engine's throughput; largest sample difference from one engine's audio %.3g%n",
                        target, n, ids.size(), median, rounds, seconds[0], one / median, worst);
            } finally {
                for (KokoroModel m : models) m.close();
                for (AudioEngine e : engines) e.close();
            }
        }
    }

    static AudioEngine engine(String target) {
        String[] parts = target.split(",");
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

    /** log10 of an 80-band mel power spectrogram (n_fft 1024, hop 256, Hann) of 24 kHz audio, ends (100 ms) dropped. */
    static double[] logMel(float[] x) {
        int n = 1024, hop = 256, bands = 80, edge = 2400, frames = Math.max(0, (x.length - 2 * edge - n) / hop + 1);
        double[][] fb = melBank(n, bands, 24000);
        double[] out = new double[frames * bands], re = new double[n / 2 + 1], im = new double[n / 2 + 1], v = new double[n];
        double[] cos = new double[n], sin = new double[n];
        for (int t = 0; t < n; t++) {
            cos[t] = Math.cos(2 * Math.PI * t / n);
            sin[t] = -Math.sin(2 * Math.PI * t / n);
        }
        for (int f = 0; f < frames; f++) {
            int at = edge + f * hop;
            for (int t = 0; t < n; t++) v[t] = x[at + t] * (0.5 - 0.5 * cos[t]);
            for (int k = 0; k <= n / 2; k++) {
                double r = 0, i = 0;
                for (int t = 0; t < n; t++) {
                    int a = (k * t) & (n - 1);
                    r += v[t] * cos[a];
                    i += v[t] * sin[a];
                }
                re[k] = r;
                im[k] = i;
            }
            for (int b = 0; b < bands; b++) {
                double p = 0;
                for (int k = 0; k <= n / 2; k++) p += fb[b][k] * (re[k] * re[k] + im[k] * im[k]);
                out[f * bands + b] = Math.log10(Math.max(p, 1e-10));
            }
        }
        return out;
    }

    static double[][] melBank(int n, int bands, int rate) {
        double lo = mel(0), hi = mel(rate / 2.0);
        double[][] fb = new double[bands][n / 2 + 1];
        for (int b = 0; b < bands; b++) {
            double l = hz(lo + (hi - lo) * b / (bands + 1)), c = hz(lo + (hi - lo) * (b + 1) / (bands + 1)), r = hz(lo + (hi - lo) * (b + 2) / (bands + 1));
            for (int k = 0; k <= n / 2; k++) {
                double f = k * (double) rate / n;
                fb[b][k] = Math.max(0, Math.min((f - l) / (c - l), (r - f) / (r - c)));
            }
        }
        return fb;
    }

    static double mel(double hz) { return 2595 * Math.log10(1 + hz / 700); }

    static double hz(double mel) { return 700 * (Math.pow(10, mel / 2595) - 1); }

    static double cosine(double[] a, double[] b) {
        double ab = 0, aa = 0, bb = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            ab += a[i] * b[i];
            aa += a[i] * a[i];
            bb += b[i] * b[i];
        }
        return ab / Math.sqrt(aa * bb);
    }
}
