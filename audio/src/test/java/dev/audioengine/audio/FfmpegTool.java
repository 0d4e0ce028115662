package dev.audioengine.audio;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Debian's {@code ffmpeg} command, which makes the test files and decodes them as the reference: the same libraries
 * the engine binds, driven by FFmpeg's own code. Tests that need it skip, with the reason, where it or the libraries
 * are missing (CI installs both: scripts/test-packages).
 */
final class FfmpegTool {
    private FfmpegTool() {}

    /** Skips the calling test class unless the command and the libraries are both here. */
    static void assumeAvailable() {
        assumeTrue(
                Ffmpeg.available(),
                () -> "FFmpeg's libraries are not loadable here (" + Ffmpeg.unavailableReason() + "): apt-get install "
                        + Ffmpeg.DEBIAN_PACKAGES);
        boolean command;
        try {
            Sox.run("ffmpeg", "ffmpeg", "-version");
            command = true;
        } catch (Exception e) {
            command = false;
        }
        assumeTrue(command, "the ffmpeg command is not installed: apt-get install ffmpeg");
    }

    /** Runs {@code ffmpeg -nostdin -v error -y ARGS}; fails with its exit status. */
    static byte[] ffmpeg(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y"));
        cmd.addAll(List.of(args));
        return Sox.run("ffmpeg", cmd.toArray(String[]::new));
    }

    /** FFmpeg's own decode of one audio stream ({@code -map 0:a:N}; -1: ffmpeg's default choice), interleaved f32. */
    static float[] decode(Path file, int audioStream) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("-i", file.toString()));
        if (audioStream >= 0) args.addAll(List.of("-map", "0:a:" + audioStream));
        args.addAll(List.of("-vn", "-sn", "-f", "f32le", "-c:a", "pcm_f32le", "-"));
        byte[] raw = ffmpeg(args.toArray(String[]::new));
        float[] f = new float[raw.length / 4];
        java.nio.ByteBuffer.wrap(raw)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .asFloatBuffer()
                .get(f);
        return f;
    }
}
