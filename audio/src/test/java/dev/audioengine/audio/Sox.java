package dev.audioengine.audio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs Debian's sox (and libsndfile's sndfile-convert) as the independent reference for decoding. */
final class Sox {
    private Sox() {}

    /** Runs a command; fails with its output when it fails, or with the package to install when it is missing. */
    static byte[] run(String debianPackage, String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.PIPE)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    command[0] + " is needed for this test: apt-get install " + debianPackage, e);
        }
        p.getOutputStream().close();
        var err = p.getErrorStream();
        Thread drain = Thread.ofVirtual().start(() -> {
            try {
                err.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (IOException ignored) {
            }
        });
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed with exit " + p.exitValue());
        }
        drain.join();
        return out;
    }

    static byte[] sox(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sox", "-V1"));
        cmd.addAll(List.of(args));
        return run("sox", cmd.toArray(String[]::new));
    }

    /** sox's own decode of a file: interleaved 32-bit float. */
    static float[] decode(Path file) throws IOException, InterruptedException {
        return floats(sox(file.toString(), "-t", "f32", "-"));
    }

    static float[] floats(byte[] raw) {
        float[] f = new float[raw.length / 4];
        ByteBuffer.wrap(raw).order(ByteOrder.nativeOrder()).asFloatBuffer().get(f);
        return f;
    }

    /** Interleaved frames averaged to mono in float64, rounded once: the engine's mix. */
    static float[] mono(float[] interleaved, int channels) {
        float[] m = new float[interleaved.length / channels];
        for (int i = 0; i < m.length; i++) {
            double s = 0;
            for (int c = 0; c < channels; c++) s += interleaved[i * channels + c];
            m[i] = (float) (s * (1.0 / channels));
        }
        return m;
    }

    /** A 16-bit WAV of pink noise with a 440 Hz tone (sox's -R: the same every run), made by sox. */
    static Path noiseWav(Path dir, String name, int rate, int channels, double seconds)
            throws IOException, InterruptedException {
        Path f = dir.resolve(name);
        String d = Double.toString(seconds);
        sox(
                "-R",
                "-n",
                "-r",
                Integer.toString(rate),
                "-c",
                Integer.toString(channels),
                "-b",
                "16",
                f.toString(),
                "synth",
                d,
                "pinknoise",
                "synth",
                d,
                "sine",
                "mix",
                "440",
                "vol",
                "0.5");
        return f;
    }
}
