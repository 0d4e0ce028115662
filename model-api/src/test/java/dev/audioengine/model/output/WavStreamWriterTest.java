package dev.audioengine.model.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 16-bit PCM WAV, whole and piece by piece: what readers (WavReader, sox) get back, and the header fields. */
class WavStreamWriterTest {
    @TempDir
    Path dir;

    private static float[] tone(int n, double hz) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = (float) (0.5 * Math.sin(2 * Math.PI * hz * i / 24000));
        return x;
    }

    private static List<float[]> pieces() {
        return List.of(tone(1000, 220), new float[0], tone(2401, 440), tone(7, 880));
    }

    private static float[] joined(List<float[]> pieces) {
        float[] all = new float[pieces.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (float[] p : pieces) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }

    @Test
    void aFileWrittenPieceByPieceIsByteForByteTheWholeFile() throws Exception {
        Path streamed = dir.resolve("streamed.wav"), whole = dir.resolve("whole.wav");
        try (WavStreamWriter w = WavStreamWriter.toFile(streamed, 24000)) {
            for (float[] p : pieces()) w.write(p);
            assertThat(w.samples()).isEqualTo(3408);
        }
        WavWriter.writePcm16(whole, joined(pieces()), 24000);
        assertThat(Files.readAllBytes(streamed)).isEqualTo(Files.readAllBytes(whole));
        ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(whole)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(h.getInt(4)).as("RIFF size").isEqualTo(36 + 2 * 3408);
        assertThat(h.getShort(20)).as("WAVE_FORMAT_PCM").isEqualTo((short) 1);
        assertThat(h.getShort(34)).as("bits").isEqualTo((short) 16);
        assertThat(h.getInt(40)).as("data size").isEqualTo(2 * 3408);
    }

    @Test
    void theSamplesReadBackWithinAStepOf16Bits() throws Exception {
        float[] x = joined(pieces());
        x[0] = 1f;
        x[1] = -1f;
        x[2] = 3f; // clipped
        x[3] = Float.NaN;
        Path wav = dir.resolve("a.wav");
        WavWriter.writePcm16(wav, x, 24000);
        AudioClip clip = WavReader.read(wav);
        assertThat(clip.sampleRate()).isEqualTo(24000);
        float[] y = clip.samples();
        assertThat(y).hasSize(x.length);
        assertThat(y[0]).isCloseTo(1f, org.assertj.core.api.Assertions.within(1e-4f));
        assertThat(y[1]).isCloseTo(-1f, org.assertj.core.api.Assertions.within(1e-4f));
        assertThat(y[2]).isCloseTo(1f, org.assertj.core.api.Assertions.within(1e-4f));
        assertThat(y[3]).isZero();
        // written as round(x * 32767) (libsndfile's scale), read as n / 32768: half a step of rounding, half of scale
        for (int i = 4; i < x.length; i++) {
            assertThat(y[i]).as("sample %d", i).isCloseTo(x[i], org.assertj.core.api.Assertions.within(1f / 16384));
        }
    }

    /** Standard output cannot be rewound: both sizes stay 0xFFFFFFFF, which readers take as "to the end". */
    @Test
    void aStreamKeepsUnknownSizesAndReadersReadToTheEnd() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Integer> sizes = new ArrayList<>();
        try (WavStreamWriter w = WavStreamWriter.toStream(out, 24000)) {
            for (float[] p : pieces()) {
                w.write(p);
                sizes.add(out.size()); // flushed per piece: a player on the pipe hears it now
            }
        }
        assertThat(sizes).containsExactly(44 + 2000, 44 + 2000, 44 + 2000 + 4802, 44 + 2000 + 4802 + 14);
        ByteBuffer h = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(h.getInt(4)).isEqualTo(-1);
        assertThat(h.getInt(40)).isEqualTo(-1);
        AudioClip clip = WavReader.decode(out.toByteArray(), "stream");
        Path whole = dir.resolve("whole.wav");
        WavWriter.writePcm16(whole, joined(pieces()), 24000);
        assertThat(clip.samples()).isEqualTo(WavReader.read(whole).samples());

        assumeTrue(Files.isExecutable(Path.of("/usr/bin/sox")), "sox is not installed (Debian package sox)");
        Path piped = Files.write(dir.resolve("piped.wav"), out.toByteArray());
        Process p = new ProcessBuilder("sox", piped.toString(), "-t", "s16", "-").start();
        byte[] raw = p.getInputStream().readAllBytes();
        p.waitFor();
        assertThat(raw)
                .as("sox decodes every sample of the unknown-size stream")
                .hasSize(2 * 3408);
    }
}
