package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;

/**
 * Where Moonshine's CPU time goes, beside ONNX Runtime's: per round over Debian's 10 recordings, the calling thread's
 * CPU time in the engine's encoder (window already compiled), in its greedy decoding, in ORT's encoder run and in
 * ORT's whole transcription (encoder + its decoding loop), the two interleaved per recording. Thread CPU time, not
 * wall: with one thread both run on the caller, and on a shared machine wall time mostly measures the neighbours.
 * <pre>scripts/peers/bench-asr-vs-ort split [tiny|base] [rounds]</pre>
 */
public final class MoonshineCpuSplit {
    private MoonshineCpuSplit() {}

    public static void main(String[] args) throws Exception {
        String size = args.length > 0 ? args[0] : "tiny";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        MoonshineCheckpoint files = size.equals("base") ? MoonshineFixtures.base() : MoonshineFixtures.tiny();
        List<MoonshineFixtures.Utterance> set = MoonshineFixtures.debianSet();
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                MoonshineModel m = MoonshineModel.load(engine, files, MoonshineFixtures.tokenizer());
                OrtMoonshine ort = new OrtMoonshine(files, m.config(), 1)) {
            DecodingSession[] sessions = new DecodingSession[set.size()];
            for (int i = 0; i < set.size(); i++) {
                int max = (int) (set.get(i).seconds() * 6),
                        frames = (int) MoonshineConfig.frames(set.get(i).samples().length);
                sessions[i] = new DecodingSession(
                        engine, m.weightsForProfiling(), (max + 1 + 31) / 32 * 32, (frames + 63) / 64 * 64);
            }
            System.out.printf(
                    Locale.ROOT,
                    "moonshine-%s, one thread, thread CPU seconds per round of %d recordings (rounds 1-2 warm up)%n",
                    size,
                    set.size());
            for (int r = 0; r < rounds + 2; r++) {
                long enc = 0, dec = 0, ortEnc = 0, ortAll = 0;
                for (int i = 0; i < set.size(); i++) {
                    float[] audio = set.get(i).samples();
                    long t0 = threadCpu();
                    sessions[i].encode(audio, 0, audio.length, false);
                    long t1 = threadCpu();
                    sessions[i].greedy((int) (set.get(i).seconds() * 6));
                    long t2 = threadCpu();
                    ort.encode(audio, new int[1]);
                    long t3 = threadCpu();
                    ort.transcribe(audio);
                    long t4 = threadCpu();
                    enc += t1 - t0;
                    dec += t2 - t1;
                    ortEnc += t3 - t2;
                    ortAll += t4 - t3;
                }
                System.out.printf(
                        Locale.ROOT,
                        "round %d: engine encoder %.3f decoder %.3f total %.3f | ORT encoder %.3f decoder %.3f total %.3f | engine/ORT %.3f%n",
                        r + 1,
                        enc / 1e9,
                        dec / 1e9,
                        (enc + dec) / 1e9,
                        ortEnc / 1e9,
                        (ortAll - ortEnc) / 1e9,
                        ortAll / 1e9,
                        (enc + dec) / (double) ortAll);
            }
            for (DecodingSession s : sessions) s.close();
        }
    }

    /**
     * The calling thread's CPU time, through java.management by reflection: the models module does not (and should
     * not) require it, and core reflection reads any module of the boot layer.
     */
    private static long threadCpu() {
        try {
            Object bean = THREAD_MX_BEAN.invoke(null);
            return (long) CURRENT_THREAD_CPU.invoke(bean);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no thread CPU time here: " + e, e);
        }
    }

    private static final Method THREAD_MX_BEAN, CURRENT_THREAD_CPU;

    static {
        try {
            THREAD_MX_BEAN =
                    Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean");
            CURRENT_THREAD_CPU =
                    Class.forName("java.lang.management.ThreadMXBean").getMethod("getCurrentThreadCpuTime");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
