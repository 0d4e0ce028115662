package dev.audioengine.audio;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Not a test: decodes, mixes and resamples a file to 16 kHz as a stream and prints the time, for
 * comparison with {@code sox FILE -r 16000 out.wav} (run it under /usr/bin/time -v for CPU time and peak memory). Run from audio/ with
 * {@code java --add-modules jdk.incubator.vector -cp target/classes:target/test-classes
 * dev.audioengine.audio.AudioStreamSpeed FILE [RUNS]}.
 */
public final class AudioStreamSpeed {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        float[] block = new float[8192];
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            double sum = 0;
            long n = 0;
            try (AudioStream in = AudioStream.open(file, System.err::println).resampleTo(16000)) {
                for (int k; (k = in.read(block, 0, block.length)) >= 0; n += k) sum += block[0];
                long wall = System.nanoTime() - t0;
                System.out.printf(
                        Locale.ROOT,
                        "run %d: %s, %d Hz -> 16000 Hz, %d samples out: wall %.3f s, decodeNanos %.3f s (%s)%n",
                        r,
                        in.format(),
                        in.sourceRate(),
                        n,
                        wall / 1e9,
                        in.decodeNanos() / 1e9,
                        sum == 12345 ? "!" : "");
            }
        }
    }
}
