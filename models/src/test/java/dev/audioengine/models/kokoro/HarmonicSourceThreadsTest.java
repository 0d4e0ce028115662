package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.models.host.HostLoops;
import dev.audioengine.models.kokoro.KokoroNetwork.HarmonicSource;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The harmonic source and its spectrum, split over the host threads, do not depend on the thread count. */
class HarmonicSourceThreadsTest {
    @Test
    void theHarmonicSourceAndItsSpectrumAreTheSameOnOneThreadAndOnSeveral() {
        Random r = new Random(7);
        float[] f0 = new float[2 * 57];
        for (int i = 0; i < f0.length; i++)
            f0[i] = i % 11 < 2 ? 0 : 90 + 200 * r.nextFloat(); // voiced and unvoiced stretches
        float[] w = new float[HarmonicSource.HARMONICS];
        for (int k = 0; k < w.length; k++) w[k] = (float) r.nextGaussian() * 0.3f;
        HarmonicSource source = new HarmonicSource(w, 0.02f);
        float[] one, har;
        try (HostLoops loops = new HostLoops(1)) {
            one = source.source(f0, loops);
            har = HarmonicSource.spectrum(one, loops);
        }
        try (HostLoops loops = new HostLoops(5)) {
            assertThat(source.source(f0, loops)).containsExactly(one);
            assertThat(HarmonicSource.spectrum(one, loops)).containsExactly(har);
        }
        assertThat(one).hasSize(f0.length * HarmonicSource.UPSAMPLE);
        // a voiced stretch carries the harmonics: not the constant tanh(bias) of an unvoiced one
        assertThat(one[5 * HarmonicSource.UPSAMPLE + 17]).isNotEqualTo(one[0]);
    }
}
