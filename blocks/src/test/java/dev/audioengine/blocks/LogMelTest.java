package dev.audioengine.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.blocks.weights.WeightStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whisper's log-mel on the CPU against the float64 reference, and against Whisper's recipe written
 * out independently in float64: a direct DFT of reflect-padded Hann frames, librosa's Slaney mel
 * filterbank built the way librosa builds it (mel_f, fdiff, ramps), log10, max − 8, (x + 4) / 4.
 */
class LogMelTest {

    @Test
    void matchesWhisperRecipe(@TempDir Path dir) {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        int b = 2, samples = 8000 + 37, mels = 80;
        float[] audio = new float[b * samples];
        for (int i = 0; i < audio.length; i++)
            audio[i] = (float) (0.4 * Math.sin(i * 0.07 + (i / samples)) + 0.02 * r.normal(1, 0, 1)[0]);
        try (AudioEngine engine = BlockCheck.cpu();
                WeightStore store = new RandomCheckpoint(r).weight("unused", 1).open(dir, DType.F32);
                HostTensor x = HostTensor.ofFloats(Shape.of(b, samples), audio)) {
            LogMel mel = LogMel.whisper(mels, store);
            GraphBuilder g = new GraphBuilder();
            Tensor y = mel.apply(g, g.input("audio", x.shape()));
            assertThat(y.shape()).isEqualTo(Shape.of(b, mels, samples / 160));
            float[] got = BlockCheck.run(engine, "log-mel", g.build(y), Map.of("audio", x), seed);
            Closeness.assertMaxAbs(
                    "log-mel vs Whisper's recipe in float64",
                    y.shape(),
                    seed,
                    got,
                    whisper(audio, b, samples, mels),
                    2e-4);
        }
    }

    private static double[] whisper(float[] audio, int b, int samples, int mels) {
        int nFft = 400,
                hop = 160,
                sr = 16000,
                bins = nFft / 2 + 1,
                frames = samples / hop; // torch.stft gives frames + 1; Whisper drops the last
        double[] fft = new double[bins];
        for (int k = 0; k < bins; k++) fft[k] = sr / 2.0 * k / (bins - 1); // np.linspace(0, sr/2, 1 + n_fft/2)
        double[] melF = new double[mels + 2];
        double fsp = 200.0 / 3, logstep = Math.log(6.4) / 27, maxMel = 15 + Math.log(8000 / 1000.0) / logstep;
        for (int i = 0; i < melF.length; i++) {
            double m = maxMel * i / (mels + 1);
            melF[i] = m >= 15 ? 1000 * Math.exp(logstep * (m - 15)) : fsp * m;
        }
        double[][] weights = new double[mels][bins];
        for (int i = 0; i < mels; i++) {
            double enorm = 2.0 / (melF[i + 2] - melF[i]);
            for (int k = 0; k < bins; k++) {
                double lower = -(melF[i] - fft[k]) / (melF[i + 1] - melF[i]),
                        upper = (melF[i + 2] - fft[k]) / (melF[i + 2] - melF[i + 1]);
                weights[i][k] = Math.max(0, Math.min(lower, upper)) * enorm;
            }
        }
        double[] out = new double[b * mels * frames];
        for (int bi = 0; bi < b; bi++) {
            double[] logs = new double[mels * frames];
            double max = Double.NEGATIVE_INFINITY;
            for (int t = 0; t < frames; t++) {
                double[] power = new double[bins];
                for (int k = 0; k < bins; k++) {
                    double re = 0, im = 0;
                    for (int n = 0; n < nFft; n++) {
                        int s = t * hop + n - nFft / 2;
                        if (s < 0) s = -s;
                        if (s >= samples) s = 2 * (samples - 1) - s;
                        double v = audio[bi * samples + s] * (0.5 - 0.5 * Math.cos(2 * Math.PI * n / nFft));
                        re += v * Math.cos(2 * Math.PI * k * n / nFft);
                        im -= v * Math.sin(2 * Math.PI * k * n / nFft);
                    }
                    power[k] = re * re + im * im;
                }
                for (int m = 0; m < mels; m++) {
                    double e = 0;
                    for (int k = 0; k < bins; k++) e += weights[m][k] * power[k];
                    logs[m * frames + t] = Math.log10(Math.max(e, 1e-10));
                    max = Math.max(max, logs[m * frames + t]);
                }
            }
            for (int i = 0; i < logs.length; i++) out[bi * mels * frames + i] = (Math.max(logs[i], max - 8) + 4) / 4;
        }
        return out;
    }
}
