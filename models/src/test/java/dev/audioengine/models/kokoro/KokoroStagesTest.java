package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Each stage of the engine's Kokoro against ONNX Runtime's named intermediates, on hello world (durations agree there). */
class KokoroStagesTest {
    static final String F0 = "/encoder/F0_proj/Conv_output_0",
            N = "/encoder/N_proj/Conv_output_0",
            SOURCE = "/decoder/decoder/generator/m_source/l_tanh/Tanh_output_0",
            HAR = "/decoder/decoder/generator/Concat_3_output_0",
            ASR = "/encoder/MatMul_1_output_0",
            ENCODE = "/decoder/decoder/encode/Div_3_output_0",
            DECODE = "/decoder/decoder/decode.3/Div_4_output_0",
            POST = "/decoder/decoder/generator/conv_post/Conv_output_0",
            CONCAT_SCALE = "/decoder/decoder/Concat_output_0_scale";

    @Test
    void stages() throws Exception {
        KokoroVocabulary vocab = KokoroVocabulary.read(KokoroFixtures.tokenizer());
        String ph = OrtKokoroTest.HELLO_WORLD;
        long[] ids = vocab.encode(ph);
        float[] style =
                KokoroVoice.read("af_heart", KokoroFixtures.voice("af_heart")).style(ph.length());
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                KokoroModel model = KokoroModel.load(engine, KokoroFixtures.model(), vocab);
                OrtKokoro ort = new OrtKokoro(
                        KokoroFixtures.model(), 2, F0, N, SOURCE, HAR, ASR, ENCODE, DECODE, POST, CONCAT_SCALE)) {
            OrtKokoro.Output ref = ort.run(ids, style, 1f);
            KokoroModel.Stages ours = model.stages(ids, style, 1f, null);
            report("F0", ours.f0(), ref.extra().get(F0));
            report("N", ours.n(), ref.extra().get(N));
            KokoroModel.Stages fromOrtCurves = model.stages(
                    ids,
                    style,
                    1f,
                    new KokoroModel.Stages(
                            null, ref.extra().get(F0), ref.extra().get(N), null, null, null, null));
            report("source from ORT's F0", fromOrtCurves.source(), ref.extra().get(SOURCE));
            float[] har = ref.extra().get(HAR);
            report(
                    "har magnitudes",
                    Arrays.copyOf(fromOrtCurves.har(), har.length / 2),
                    Arrays.copyOf(har, har.length / 2));
            report(
                    "har phases",
                    Arrays.copyOfRange(fromOrtCurves.har(), har.length / 2, har.length),
                    Arrays.copyOfRange(har, har.length / 2, har.length));
            phaseAgreement(fromOrtCurves.har(), har);
            KokoroModel.Stages fromOrtSpectrum = model.stages(
                    ids,
                    style,
                    1f,
                    new KokoroModel.Stages(
                            null, ref.extra().get(F0), ref.extra().get(N), null, har, null, null));
            report(
                    "asr (inner 80%)",
                    inner(fromOrtSpectrum.probes().get(KokoroNetwork.ASR), 512),
                    inner(ref.extra().get(ASR), 512));
            report(
                    "encode (inner 80%)",
                    inner(fromOrtSpectrum.probes().get(KokoroNetwork.ENCODE), 1024),
                    inner(ref.extra().get(ENCODE), 1024));
            report(
                    "decode.3 (inner 80%)",
                    inner(fromOrtSpectrum.probes().get(KokoroNetwork.DECODE), 512),
                    inner(ref.extra().get(DECODE), 512));
            report(
                    "conv_post (inner 80%)",
                    inner(fromOrtSpectrum.probes().get(KokoroNetwork.POST), 22),
                    inner(ref.extra().get(POST), 22));
            // encode's input cat(asr, F0, N) is quantized to 8 bits per tensor before its 1x1 shortcut conv: F0 in Hz
            // sets the step
            System.err.printf(
                    "[kokoro stage] ORT's 8-bit step for encode's input: %.4f (asr rms %.4f)%n",
                    ref.extra().get(CONCAT_SCALE)[0],
                    Math.sqrt(Arrays.stream(toDoubles(ref.extra().get(ASR)))
                            .map(v -> v * v)
                            .average()
                            .orElseThrow()));
            int edge = 2400;
            report(
                    "waveform from ORT's curves and source",
                    Arrays.copyOfRange(fromOrtSpectrum.waveform(), edge, har.length / 22 * 5 - edge),
                    Arrays.copyOfRange(ref.waveform(), edge, har.length / 22 * 5 - edge));
            report(
                    "waveform",
                    Arrays.copyOfRange(ours.waveform(), edge, ours.waveform().length - edge),
                    Arrays.copyOfRange(ref.waveform(), edge, ours.waveform().length - edge));
            assertThat(ours.f0()).hasSameSizeAs(ref.extra().get(F0));
        }
    }

    /** Where the magnitude is not tiny: how often the phases agree, and how often they are negated. */
    static void phaseAgreement(float[] ours, float[] ref) {
        int half = ref.length / 2, big = 0, same = 0, negated = 0;
        for (int i = 0; i < half; i++) {
            if (ref[i] < 1e-3) continue;
            big++;
            double a = ours[half + i], b = ref[half + i];
            if (Math.abs(Math.IEEEremainder(a - b, 2 * Math.PI)) < 0.05) same++;
            else if (Math.abs(Math.IEEEremainder(a + b, 2 * Math.PI)) < 0.05) negated++;
        }
        System.err.printf(
                "[kokoro stage] phases where |X| > 1e-3: %d bins, %d agree, %d negated%n", big, same, negated);
    }

    static double[] toDoubles(float[] x) {
        double[] d = new double[x.length];
        for (int i = 0; i < x.length; i++) d[i] = x[i];
        return d;
    }

    /** [C, T] row-major → the middle 80 % of each row, concatenated. */
    static float[] inner(float[] x, int channels) {
        int t = x.length / channels, from = t / 10, to = t - t / 10;
        float[] out = new float[channels * (to - from)];
        for (int c = 0; c < channels; c++) System.arraycopy(x, c * t + from, out, c * (to - from), to - from);
        return out;
    }

    /** Prints relative RMS error and correlation. */
    static double report(String what, float[] ours, float[] ref) {
        double d = 0, r = 0, o = 0, x = 0;
        int n = Math.min(ours.length, ref.length);
        for (int i = 0; i < n; i++) {
            d += (ours[i] - ref[i]) * (double) (ours[i] - ref[i]);
            r += ref[i] * (double) ref[i];
            o += ours[i] * (double) ours[i];
            x += ours[i] * (double) ref[i];
        }
        System.err.printf(
                "[kokoro stage] %-40s n %d/%d  rel rms err %.4f  corr %.4f  rms ours %.4g ref %.4g%n",
                what,
                ours.length,
                ref.length,
                Math.sqrt(d / r),
                x / Math.sqrt(o * r),
                Math.sqrt(o / n),
                Math.sqrt(r / n));
        return Math.sqrt(d / r);
    }
}
