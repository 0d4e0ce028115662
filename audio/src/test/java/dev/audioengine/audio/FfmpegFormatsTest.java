package dev.audioengine.audio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The containers and codecs only FFmpeg reads, made by Debian's ffmpeg command (sox for AMR-NB, which this ffmpeg
 * cannot encode) from a stereo source whose channels differ (left: a 440 Hz tone at 0.6, right: a 300 to 3000 Hz chirp
 * at 0.2), decoded by the engine and compared with {@code ffmpeg -f f32le}'s decode of the same file: interleaved, so
 * that a swapped channel, a wrong rate (a different length), a lost or doubled frame or a wrong stream all fail.
 */
class FfmpegFormatsTest {
    @TempDir
    static Path dir;

    static Path source;
    static final int RATE = 48000;

    @BeforeAll
    static void makeSource() throws Exception {
        FfmpegTool.assumeAvailable();
        source = dir.resolve("source.wav");
        // sox's synth gives channel 1 the first tone and channel 2 the second
        Sox.sox(
                "-R",
                "-n",
                "-r",
                Integer.toString(RATE),
                "-c",
                "2",
                "-b",
                "16",
                source.toString(),
                "synth",
                "2.5",
                "sine",
                "440",
                "sine",
                "300-3000",
                "remix",
                "1v0.6",
                "2v0.2");
    }

    /** Makes {@code name} from the source, as its case says. */
    static Path make(String name) throws Exception {
        Path f = dir.resolve(name);
        String in = source.toString(), out = f.toString();
        switch (name) {
            case "opus.webm" -> FfmpegTool.ffmpeg("-i", in, "-c:a", "libopus", out);
            case "aac.m4a" -> FfmpegTool.ffmpeg("-i", in, "-c:a", "aac", out);
            case "faststart.m4a" -> FfmpegTool.ffmpeg("-i", in, "-c:a", "aac", "-movflags", "+faststart", out);
            case "video.mp4" ->
                FfmpegTool.ffmpeg(
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc=duration=2.5:size=128x96:rate=10",
                        "-i",
                        in,
                        "-map",
                        "0:v",
                        "-map",
                        "1:a",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "ultrafast",
                        "-c:a",
                        "aac",
                        "-shortest",
                        out);
            case "ac3.mkv" -> FfmpegTool.ffmpeg("-i", in, "-c:a", "ac3", out);
            case "pcm.mkv" -> FfmpegTool.ffmpeg("-i", in, "-c:a", "pcm_s16le", out);
            case "speex.ogg" -> FfmpegTool.ffmpeg("-i", in, "-ar", "16000", "-ac", "1", "-c:a", "libspeex", out);
            case "vorbis.ogg" -> FfmpegTool.ffmpeg("-i", in, "-c:a", "libvorbis", out);
            case "wmav2.wma" -> FfmpegTool.ffmpeg("-i", in, "-c:a", "wmav2", out);
            case "adts.aac" -> FfmpegTool.ffmpeg("-i", in, "-c:a", "aac", "-f", "adts", out);
            case "amr-nb.amr" -> Sox.sox(in, "-r", "8000", "-c", "1", "-t", "amr-nb", out);
            default -> throw new IllegalArgumentException(name);
        }
        return f;
    }

    /** The engine's frames, interleaved, at the file's own rate and channel count. */
    record Frames(float[] samples, int rate, int channels, String format, List<String> warnings) {}

    static Frames engineFrames(Path file, int audioStream) throws Exception {
        List<String> warnings = new ArrayList<>();
        try (FrameDecoder d = AudioDecoders.open(file, audioStream, warnings::add)) {
            float[] all = new float[1 << 16];
            float[] block = new float[4096 * d.channels()];
            int at = 0;
            for (int n; (n = d.read(block, 4096)) >= 0; ) {
                if (at + n * d.channels() > all.length)
                    all = java.util.Arrays.copyOf(all, 2 * all.length + block.length);
                System.arraycopy(block, 0, all, at, n * d.channels());
                at += n * d.channels();
            }
            return new Frames(
                    java.util.Arrays.copyOf(all, at), d.sampleRate(), d.channels(), d.description(), warnings);
        }
    }

    static double maxDiff(float[] a, float[] b) {
        double max = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) max = Math.max(max, Math.abs(a[i] - (double) b[i]));
        return max;
    }

    static double rms(float[] interleaved, int channels, int channel) {
        double s = 0;
        int n = 0;
        for (int i = channel; i < interleaved.length; i += channels, n++) s += interleaved[i] * (double) interleaved[i];
        return Math.sqrt(s / Math.max(1, n));
    }

    /**
     * name, rate, channels, who decodes it, bound on |engine - ffmpeg|. The bound is 0 where the engine runs the same
     * FFmpeg decoder as the command (the same library, decoder and float conversion give the same bits); Vorbis in
     * Ogg is libsndfile's (libvorbis), not FFmpeg's own Vorbis decoder: two float decoders, 3.6e-7 apart in the run
     * measured, bounded at 2e-6. A swapped channel differs by up to 0.8, a sample's shift on the 440 Hz tone by 0.035.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "opus.webm,     48000, 2, FFmpeg,     0",
        "aac.m4a,       48000, 2, FFmpeg,     0",
        "video.mp4,     48000, 2, FFmpeg,     0",
        "ac3.mkv,       48000, 2, FFmpeg,     0",
        "pcm.mkv,       48000, 2, FFmpeg,     0",
        "speex.ogg,     16000, 1, FFmpeg,     0",
        "wmav2.wma,     48000, 2, FFmpeg,     0",
        "adts.aac,      48000, 2, FFmpeg,     0",
        "amr-nb.amr,     8000, 1, FFmpeg,     0",
        "vorbis.ogg,    48000, 2, libsndfile, 2e-6",
    })
    void decodesLikeFfmpeg(String name, int rate, int channels, String decoder, double bound) throws Exception {
        Path file = make(name);
        float[] expected = FfmpegTool.decode(file, -1);
        Frames got = engineFrames(file, AudioStream.BEST_AUDIO_STREAM);
        assertThat(got.format()).as(name).contains(decoder);
        assertThat(got.rate()).as(name).isEqualTo(rate);
        assertThat(got.channels()).as(name).isEqualTo(channels);
        assertThat(got.samples().length)
                .as("%s: samples, engine vs ffmpeg", name)
                .isEqualTo(expected.length);
        double diff = maxDiff(got.samples(), expected);
        System.out.printf(
                "%s: %s, %d frames, max |engine - ffmpeg| %.3g%n",
                name, got.format(), got.samples().length / channels, diff);
        assertThat(diff).as(name).isLessThanOrEqualTo(bound);
        assertThat(got.warnings()).as(name).isEmpty();
        if (channels == 2) { // the source's channels, in order: 0.6 / sqrt 2 and 0.2 / sqrt 2 RMS
            assertThat(rms(got.samples(), 2, 0)).as(name + " left").isBetween(0.38, 0.47);
            assertThat(rms(got.samples(), 2, 1)).as(name + " right").isBetween(0.11, 0.17);
        } else {
            assertThat(rms(got.samples(), 1, 0)).as(name).isGreaterThan(0.05);
        }
        // the public stream: the same frames, mixed to mono
        try (AudioStream in = AudioStream.open(file)) {
            assertThat(in.readAll().samples()).as(name).containsExactly(Sox.mono(got.samples(), channels));
        }
    }

    @Test
    void pcmInMatroskaIsTheSourceExactly() throws Exception {
        Frames got = engineFrames(
                dir.resolve("pcm.mkv").toFile().exists() ? dir.resolve("pcm.mkv") : make("pcm.mkv"),
                AudioStream.BEST_AUDIO_STREAM);
        assertThat(got.samples()).containsExactly(Sox.decode(source));
    }
}
