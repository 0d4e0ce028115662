package dev.audioengine.backend.cpu.kernels;

import org.junit.jupiter.api.Test;

class FftProbeScratch {
    @Test
    void probe() {
        for (int n : new int[] {512, 1024, 400}) {
            Fft f = new Fft(n);
            double[] re = new double[n], im = new double[n];
            long best = Long.MAX_VALUE;
            for (int rep = 0; rep < 200; rep++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < 100; i++) { re[i % n] = i; f.forward(re, im); }
                best = Math.min(best, System.nanoTime() - t0);
            }
            System.out.printf("FFT %d: %.2f us%n", n, best / 100 / 1e3);
        }
    }
}
