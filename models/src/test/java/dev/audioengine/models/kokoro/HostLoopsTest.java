package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.models.kokoro.KokoroNetwork.HarmonicSource;
import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** Host loops split over threads cover every index once, and the harmonic source does not depend on the thread count. */
class HostLoopsTest {
    @Test
    void everyIndexOnceForAnySizeAndThreadCount() {
        for (int threads : new int[] {1, 2, 3, 7}) {
            try (HostLoops loops = new HostLoops(threads)) {
                for (int n : new int[] {0, 1, 5, 1023, 4097, 100_003}) {
                    AtomicIntegerArray seen = new AtomicIntegerArray(Math.max(n, 1));
                    loops.forRange(n, 7, (from, to) -> {
                        for (int i = from; i < to; i++) seen.incrementAndGet(i);
                    });
                    for (int i = 0; i < n; i++)
                        assertThat(seen.get(i))
                                .as("index %d of %d on %d threads", i, n, threads)
                                .isEqualTo(1);
                }
            }
        }
        assertThatThrownBy(() -> new HostLoops(0)).isInstanceOf(IllegalArgumentException.class);
    }

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
