package dev.audioengine.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.spi.NativeLibrary;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The messages about FFmpeg's libraries themselves: missing, of another major version, and what installing them adds.
 * None needs FFmpeg installed (the version check skips without libavutil), so these run where the others skip.
 */
class FfmpegLibraryTest {
    @Test
    void missingLibrariesNameTheDebianPackages() {
        Object loaded = Ffmpeg.load(Ffmpeg.Sonames.of(
                "libavutil-absent.so.57",
                "libswresample-absent.so.4",
                "libavcodec-absent.so.59",
                "libavformat-absent.so.59"));
        assertThat(loaded).isInstanceOf(String.class);
        assertThatThrownBy(() -> Ffmpeg.require(loaded, "memo.m4a"))
                .isInstanceOf(AudioFormatException.class)
                .hasMessageStartingWith("memo.m4a: FFmpeg's libraries, which read WebM, Matroska (MKV), MP4/M4A/MOV")
                .hasMessageContaining("libavutil-absent.so.57")
                .hasMessageContaining("libavformat-absent.so.59")
                .hasMessageContaining("apt-get install libavformat59 libavcodec59 libswresample4 libavutil57");
    }

    /** The sentence the all-refused message (and so the server's 400) ends with, with each library there or not. */
    @Test
    void theAcceptedFormatsAreNamedAndWhatAMissingLibraryWouldAdd() {
        assertThat(AudioDecoders.accepted(true, true))
                .isEqualTo("Readable here: WAV; FLAC, Ogg Vorbis and Opus, MP3, AIFF, AU, CAF, W64 (libsndfile); WebM,"
                        + " Matroska (MKV), MP4/M4A/MOV, AAC, AMR, WMA, Ogg with any codec and the sound of video files"
                        + " (FFmpeg).");
        assertThat(AudioDecoders.accepted(true, false))
                .startsWith("Readable here: WAV; FLAC, Ogg Vorbis and Opus, MP3, AIFF, AU, CAF, W64 (libsndfile).")
                .endsWith(" Installing FFmpeg's libraries (apt-get install libavformat59 libavcodec59 libswresample4"
                        + " libavutil57) add WebM, Matroska (MKV), MP4/M4A/MOV, AAC, AMR, WMA, Ogg with any codec and"
                        + " the sound of video files.");
        assertThat(AudioDecoders.accepted(false, false))
                .startsWith("Readable here: WAV.")
                .contains("Installing libsndfile (apt-get install libsndfile1) adds FLAC")
                .contains("installing FFmpeg's libraries");
    }

    @Test
    void anotherMajorVersionIsRefusedRatherThanMisread() {
        NativeLibrary util = NativeLibrary.find(List.of("libavutil.so.57"), List.of(), "avutil_version");
        assumeTrue(util.found(), "libavutil.so.57 is not installed");
        assertThat(Ffmpeg.checkVersion(util, "avutil", Ffmpeg.AVUTIL_MAJOR, Ffmpeg.AVUTIL_MIN_MINOR))
                .isEmpty();
        assertThat(Ffmpeg.checkVersion(util, "avutil", 58, 0))
                .contains("libavutil is 57.")
                .contains("needs 58.0 or a later 58.x");
        assertThat(Ffmpeg.checkVersion(util, "avutil", 57, 99)).contains("needs 57.99");
    }
}
