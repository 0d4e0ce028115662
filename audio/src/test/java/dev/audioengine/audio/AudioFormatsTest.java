package dev.audioengine.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every format a user is likely to have, made by sox (or libsndfile's sndfile-convert where sox
 * cannot write it), decoded by the engine and compared sample for sample with sox's own decode
 * of the same file, mixed to mono the same way. Lossless codecs must match exactly.
 */
class AudioFormatsTest {
    @TempDir
    static Path dir;

    static Path source;
    static final int RATE = 44100, CHANNELS = 2;

    @BeforeAll
    static void makeSource() throws Exception {
        source = Sox.noiseWav(dir, "source.wav", RATE, CHANNELS, 1.2345);
    }

    /** Decodes with the engine at the file's own rate. */
    static AudioClip engine(Path file) throws Exception {
        try (AudioStream in = AudioStream.open(file)) {
            assertThat(in.warnings()).isEmpty();
            return in.readAll();
        }
    }

    static double maxDiff(float[] a, float[] b) {
        assertThat(a).hasSameSizeAs(b);
        double max = 0;
        for (int i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - (double) b[i]));
        return max;
    }

    /** name, sox arguments before the output file (';'-separated), bound on |engine - sox| (0: exact). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "x.flac | | 0",
                "x24.flac | -b;24 | 0",
                "x.aiff | | 0",
                "x.au | | 0",
                "x.w64 | | 0",
                "x.caf | | 0",
                "x8.wav | -b;8 | 0",
                "x24.wav | -b;24 | 0",
                "x32f.wav | -e;floating-point | 0",
                "alaw.wav | -e;a-law | 0",
                "ulaw.wav | -e;u-law | 0",
                "alaw.au | -e;a-law | 0",
                "ulaw.au | -e;u-law | 0",
                "x.aifc | -e;u-law | 0",
                // WAV codecs the pure-Java reader leaves to libsndfile
                "ima.wav | -e;ima-adpcm | 0",
                "ms.wav | -e;ms-adpcm | 0",
                // sox decodes Vorbis to 16-bit integers, libsndfile to float: half an LSB of 16 bits apart, plus
                // rounding
                "x.ogg | | 1.6e-5",
            })
    void decodesLikeSox(String name, String args, double bound) throws Exception {
        Path file = dir.resolve(name);
        List<String> cmd = new ArrayList<>(List.of(source.toString()));
        if (args != null) cmd.addAll(List.of(args.split(";")));
        cmd.add(file.toString());
        Sox.sox(cmd.toArray(String[]::new));
        float[] expected = Sox.mono(Sox.decode(file), CHANNELS);
        AudioClip got = engine(file);
        assertThat(got.sampleRate()).isEqualTo(RATE);
        assertThat(got.channels()).isEqualTo(CHANNELS);
        assertThat(maxDiff(got.samples(), expected)).as(name).isLessThanOrEqualTo(bound);
    }

    /**
     * MP3 and Opus: this sox can neither write nor read them, so libsndfile's own sndfile-convert
     * writes them and decodes them to a WAV, the reference; the engine goes through the same library
     * by its own binding, so the two agree to float rounding, once the reference's scaling is undone
     * (sndfile-convert 1.2 divides MP3 by its peak however it is asked to write it: the scale is
     * fitted and must be 1 or 1/peak).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"x.mp3,", "x.opus,-opus"})
    void decodesMp3AndOpusLikeLibsndfilesOwnConverter(String name, String codec) throws Exception {
        Path file = dir.resolve(name), reference = dir.resolve(name + ".ref.wav");
        // mono, so that the peak the reference is divided by is the peak of what the engine returns
        Path input = dir.resolve(name + ".mono.wav");
        Sox.sox(
                source.toString(),
                "-c",
                "1",
                "-r",
                name.endsWith(".opus") ? "48000" : Integer.toString(RATE),
                input.toString());
        List<String> cmd = new ArrayList<>(List.of("sndfile-convert"));
        if (codec != null) cmd.add(codec);
        cmd.addAll(List.of(input.toString(), file.toString()));
        Sox.run("sndfile-programs", cmd.toArray(String[]::new));
        Sox.run("sndfile-programs", "sndfile-convert", "-float32", file.toString(), reference.toString());
        AudioClip expected = WavReader.read(reference);
        AudioClip got = engine(file);
        assertThat(got.sampleRate()).isEqualTo(expected.sampleRate());
        float[] scaled = got.samples().clone(), want = expected.samples();
        double peak = 0, ab = 0, aa = 0;
        for (int i = 0; i < scaled.length; i++) {
            peak = Math.max(peak, Math.abs(scaled[i]));
            ab += scaled[i] * (double) want[i];
            aa += scaled[i] * (double) scaled[i];
        }
        double scale = ab / aa;
        assertThat(Math.min(Math.abs(scale - 1), Math.abs(scale * peak - 1)))
                .as("%s: scale %.7f, peak %.7f", name, scale, peak)
                .isLessThan(1e-6);
        for (int i = 0; i < scaled.length; i++) scaled[i] = (float) (scaled[i] * scale);
        assertThat(maxDiff(scaled, expected.samples())).as(name).isLessThanOrEqualTo(1e-6);
        double rms = 0;
        for (float v : got.samples()) rms += v * v;
        assertThat(Math.sqrt(rms / got.samples().length))
                .as("%s holds the signal, not silence", name)
                .isGreaterThan(0.05);
    }

    @Test
    void theFormatIsFoundByContentNotByName() throws Exception {
        Path flac = dir.resolve("really-flac.wav"), wav = dir.resolve("really-wav.flac");
        Sox.sox(source.toString(), "-t", "flac", flac.toString());
        Files.copy(source, wav);
        try (AudioStream in = AudioStream.open(flac)) {
            assertThat(in.format()).contains("FLAC");
        }
        try (AudioStream in = AudioStream.open(wav)) {
            assertThat(in.format()).startsWith("WAV 16-bit");
        }
        assertThat(engine(flac).samples()).containsExactly(engine(wav).samples());
    }

    @Test
    void standardInputStreamsWavAndLibsndfileFormats() throws Exception {
        float[] expected = engine(source).samples();
        List<Path> files = new ArrayList<>(List.of(source));
        for (String name : List.of("pipe.flac", "pipe.au", "pipe.aiff", "pipe.w64", "pipe.ogg")) {
            files.add(dir.resolve(name));
            Sox.sox(source.toString(), files.getLast().toString());
        }
        for (Path f : files) {
            float[] want = f.toString().endsWith(".ogg") ? engine(f).samples() : expected;
            try (InputStream pipe = Files.newInputStream(f);
                    AudioStream in = AudioStream.open(pipe, f.getFileName() + " as a stream", w -> {})) {
                assertThat(in.sourceFrames().orElse(want.length))
                        .as("%s: declared frames", f)
                        .isEqualTo(want.length);
                assertThat(in.readAll().samples()).as(f.toString()).containsExactly(want);
            }
        }
    }

    /** A path that is a pipe (mkfifo, /dev/stdin, a shell's process substitution) is read as a stream. */
    @Test
    void aNamedPipeIsReadAsAStream() throws Exception {
        Path fifo = dir.resolve("fifo.wav"), flac = dir.resolve("fifo-source.flac");
        Sox.sox(source.toString(), flac.toString());
        float[] expected = engine(source).samples();
        for (Path f : List.of(source, flac)) {
            Sox.run("coreutils", "rm", "-f", fifo.toString());
            Sox.run("coreutils", "mkfifo", fifo.toString());
            Thread writer = Thread.ofPlatform().start(() -> {
                try (var out = Files.newOutputStream(fifo)) {
                    Files.copy(f, out);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (AudioStream in = AudioStream.open(fifo)) {
                assertThat(in.readAll().samples()).as(f.toString()).containsExactly(expected);
                assertThat(in.warnings()).isEmpty();
            }
            writer.join();
        }
    }

    @Test
    void theMessagesSayWhatIsWrong() throws Exception {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "these are not the samples you are looking for");
        assertThatThrownBy(() -> AudioStream.open(text))
                .isInstanceOf(AudioFormatException.class)
                .hasMessageContaining("notes.txt")
                .hasMessageContaining("not a WAV file")
                .hasMessageContaining("libsndfile cannot read it");
        Path adpcm = dir.resolve("adpcm.wav");
        Sox.sox(source.toString(), "-e", "ima-adpcm", adpcm.toString());
        assertThatThrownBy(() -> WavReader.read(adpcm))
                .isInstanceOf(WavFormatException.class)
                .hasMessageContaining("unsupported encoding");
        try (var pipe = Files.newInputStream(adpcm)) {
            assertThatThrownBy(() -> AudioStream.open(pipe, "adpcm stream", w -> {}))
                    .hasMessageContaining("unsupported encoding");
        }
        assertThatThrownBy(() -> AudioStream.open(dir.resolve("nope.wav")))
                .isInstanceOf(AudioFormatException.class)
                .hasMessageContaining("nope.wav: no such file");
        assertThatThrownBy(() -> AudioStream.open(dir))
                .isInstanceOf(AudioFormatException.class)
                .hasMessageContaining("is a directory");
        Path empty = Files.createFile(dir.resolve("empty.flac"));
        assertThatThrownBy(() -> AudioStream.open(empty))
                .isInstanceOf(AudioFormatException.class)
                .hasMessageContaining("empty file");
    }

    @Test
    void aMissingLibsndfileNamesTheDebianPackage() {
        Object loaded = Libsndfile.load(List.of("libsndfile-absent.so.9"));
        assertThat(loaded).isInstanceOf(String.class);
        assertThatThrownBy(() -> Libsndfile.require(loaded, "x.flac", "FLAC"))
                .isInstanceOf(AudioFormatException.class)
                .hasMessageContaining("x.flac")
                .hasMessageContaining("FLAC")
                .hasMessageContaining("libsndfile-absent.so.9")
                .hasMessageContaining("apt-get install libsndfile1");
    }

    @Test
    void aLyingRateInAFlacHeaderIsRefusedToo() throws Exception {
        Path low = dir.resolve("low.au");
        Sox.sox(
                "-r",
                "44100",
                source.toString(),
                "-r",
                "8000",
                "-t",
                "raw",
                "-e",
                "signed",
                "-b",
                "16",
                dir.resolve("raw.s16").toString());
        Sox.sox(
                "-t",
                "raw",
                "-r",
                "500",
                "-e",
                "signed",
                "-b",
                "16",
                "-c",
                "2",
                dir.resolve("raw.s16").toString(),
                low.toString());
        assertThatThrownBy(() -> AudioStream.open(low))
                .isInstanceOf(AudioFormatException.class)
                .hasMessageContaining("sample rate of 500 Hz");
    }
}
