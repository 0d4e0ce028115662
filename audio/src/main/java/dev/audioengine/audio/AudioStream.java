package dev.audioengine.audio;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * Audio decoded, mixed to mono and resampled in a stream, block by block, so memory stays bounded
 * whatever the length. The format is recognized by content: WAV (integer PCM, float, A-law, µ-law)
 * in pure Java; FLAC, Ogg Vorbis, Opus, MP3, AIFF, AU/SND, W64, CAF and the rest through libsndfile
 * (Debian package libsndfile1); what libsndfile refuses through FFmpeg (Debian packages libavformat59,
 * libavcodec59, libswresample4, libavutil57): WebM and Matroska, MP4/M4A/MOV, Ogg with any codec, AAC, AMR, WMA and
 * the sound of video files. Both libraries are optional: without them their formats are refused with a message
 * naming the packages. A file with several audio streams gives its best one (FFmpeg's choice), or the one asked for.
 *
 * <pre>{@code
 * try (AudioStream in = AudioStream.open(path, err::println).resampleTo(16000)) {
 *     float[] block = new float[4096];
 *     for (int n; (n = in.read(block, 0, block.length)) >= 0; ) consume(block, n);
 * }
 * }</pre>
 *
 * <p>Input is checked as it is read: a header rate outside 1 kHz .. 768 kHz is refused at open,
 * and a NaN or infinite sample fails the read that meets it ({@link NonFiniteSampleException}).
 * A file shorter than its header declares is decoded as far as it goes, with a warning. Every
 * problem is an {@link AudioFormatException} naming the source.
 *
 * <p>Not thread-safe: one thread reads at a time. Closing releases the file and any native
 * decoder state.
 */
public final class AudioStream implements AutoCloseable {
    /** Source frames decoded per step. */
    private static final int BLOCK_FRAMES = 4096;
    /** The most samples {@link #readAll} allocates before it has read them. */
    private static final long MAX_PREALLOCATED = 1 << 24;

    private final FrameDecoder decoder;
    private final String source;
    private final List<String> warnings;
    private final float[] interleaved, mono;
    private StreamingResampler resampler;
    private int rate;
    private int monoPos, monoLen;
    private long framesDecoded, samplesRead, decodeNanos;
    private boolean started, ended;

    private AudioStream(FrameDecoder decoder, String source, List<String> warnings, long openNanos) {
        this.decoder = decoder;
        this.source = source;
        this.warnings = warnings;
        this.decodeNanos = openNanos;
        rate = decoder.sampleRate();
        interleaved = new float[BLOCK_FRAMES * decoder.channels()];
        mono = decoder.channels() == 1 ? interleaved : new float[BLOCK_FRAMES];
    }

    /** For {@code audioStream}: the input's best audio stream, as FFmpeg ranks them (WAV and libsndfile: the one). */
    public static final int BEST_AUDIO_STREAM = -1;

    /** Opens a file; warnings (truncation, ...) go to {@code warnings} as they arise and to {@link #warnings()}. */
    public static AudioStream open(Path file, Consumer<String> warnings) throws IOException {
        return open(file, BEST_AUDIO_STREAM, warnings);
    }

    /**
     * Opens one audio stream of a file: {@code audioStream} counts the audio streams only, from 0 (a video's second
     * soundtrack is 1), or is {@link #BEST_AUDIO_STREAM}. A number the file does not have is an
     * {@link AudioFormatException} that says how many audio streams it has.
     */
    public static AudioStream open(Path file, int audioStream, Consumer<String> warnings) throws IOException {
        checkStream(audioStream);
        return open(file.toString(), warnings, w -> AudioDecoders.open(file, audioStream, w));
    }

    /** Opens a file; warnings are kept for {@link #warnings()}. */
    public static AudioStream open(Path file) throws IOException {
        return open(file, w -> {});
    }

    /**
     * Reads a stream; {@code name} stands for it in messages. WAV and the libsndfile formats that
     * can be read from a pipe (FLAC, AU, ...) stream; the others need a file.
     */
    public static AudioStream open(InputStream in, String name, Consumer<String> warnings) throws IOException {
        return open(in, name, BEST_AUDIO_STREAM, warnings);
    }

    /**
     * One audio stream of a stream, as {@link #open(Path, int, Consumer)} chooses it. Read front to back: a container
     * whose index follows its samples (an MP4 written without faststart) needs a file.
     */
    public static AudioStream open(InputStream in, String name, int audioStream, Consumer<String> warnings)
            throws IOException {
        checkStream(audioStream);
        return open(name, warnings, w -> AudioDecoders.open(in, name, audioStream, w));
    }

    private static void checkStream(int audioStream) {
        if (audioStream < BEST_AUDIO_STREAM)
            throw new IllegalArgumentException("audio stream numbers start at 0: " + audioStream);
    }

    /** Reads standard input (the command line's {@code --audio -}). */
    public static AudioStream openStandardInput(Consumer<String> warnings) throws IOException {
        return open(new FileInputStream(FileDescriptor.in), "standard input", warnings);
    }

    /** Opens a WAV file and nothing else: for {@link WavReader}. */
    static AudioStream openWav(Path file, Consumer<String> warnings) throws IOException {
        return open(file.toString(), warnings, w -> AudioDecoders.openWav(file, w));
    }

    /** Reads WAV bytes and nothing else: for {@link WavReader}; {@code length} is the byte count. */
    static AudioStream openWav(InputStream in, String source, long length, Consumer<String> warnings)
            throws IOException {
        return open(source, warnings, w -> AudioDecoders.wav(in, source, length, w));
    }

    private interface Opener {
        FrameDecoder open(Consumer<String> warnings) throws IOException;
    }

    private static AudioStream open(String source, Consumer<String> listener, Opener opener) throws IOException {
        Objects.requireNonNull(listener, "warnings");
        long t0 = System.nanoTime();
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        FrameDecoder decoder = opener.open(w -> {
            warnings.add(w);
            listener.accept(w);
        });
        return new AudioStream(decoder, source, warnings, System.nanoTime() - t0);
    }

    /**
     * Makes {@link #read} return samples at {@code targetRate}; call before the first read. The
     * same rate as the source's means no resampling.
     */
    public AudioStream resampleTo(int targetRate) {
        if (started) throw new IllegalStateException("resampleTo after the first read of " + source);
        if (targetRate <= 0) throw new IllegalArgumentException("target sample rate must be positive: " + targetRate);
        rate = targetRate;
        resampler =
                targetRate == decoder.sampleRate() ? null : new StreamingResampler(decoder.sampleRate(), targetRate);
        return this;
    }

    /** The rate {@link #read} delivers. */
    public int sampleRate() {
        return rate;
    }

    /** The rate the source declares. */
    public int sourceRate() {
        return decoder.sampleRate();
    }

    /** Channels in the source, before mixing to mono. */
    public int channels() {
        return decoder.channels();
    }

    /**
     * What was recognized: "WAV 16-bit integer PCM", "FLAC (Free Lossless Audio Codec), Signed 16 bit PCM (libsndfile
     * 1.2.0)", "Matroska / WebM, opus (FFmpeg 5.1.6; audio stream 0 of 1)".
     */
    public String format() {
        return decoder.description();
    }

    /** The file name, or the name given for a stream. */
    public String source() {
        return source;
    }

    /** Frames the source declares, when it does (not for pipes and streamed WAVs). */
    public OptionalLong sourceFrames() {
        long n = decoder.frames();
        return n < 0 ? OptionalLong.empty() : OptionalLong.of(n);
    }

    /** Length in seconds, when the source declares it. */
    public OptionalDouble durationSeconds() {
        long n = decoder.frames();
        return n < 0 ? OptionalDouble.empty() : OptionalDouble.of(n / (double) decoder.sampleRate());
    }

    /** Samples {@link #read} will deliver in all, when the source declares its length. */
    public OptionalLong length() {
        long n = decoder.frames();
        if (n < 0) return OptionalLong.empty();
        return OptionalLong.of(resampler == null ? n : resampler.outputLength(n));
    }

    /** Samples delivered so far. */
    public long samplesRead() {
        return samplesRead;
    }

    /** Time spent opening, decoding, mixing and resampling so far (inside this object's calls), in nanoseconds. */
    public long decodeNanos() {
        return decodeNanos;
    }

    /** Every warning so far, in order. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * Reads up to {@code len} mono samples at {@link #sampleRate()} into {@code dst[off..]};
     * returns how many (at least 1 while audio remains), or -1 at the end.
     */
    public int read(float[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        if (len == 0) return 0;
        started = true;
        long t0 = System.nanoTime();
        try {
            int n = fill(dst, off, len);
            if (n > 0) samplesRead += n;
            return n;
        } finally {
            decodeNanos += System.nanoTime() - t0;
        }
    }

    private int fill(float[] dst, int off, int len) throws IOException {
        while (true) {
            if (resampler == null) {
                if (monoPos < monoLen) {
                    int n = Math.min(len, monoLen - monoPos);
                    System.arraycopy(mono, monoPos, dst, off, n);
                    monoPos += n;
                    return n;
                }
                if (!decodeBlock()) return -1;
            } else {
                int n = resampler.pull(dst, off, len);
                if (n != 0) return n;
                if (decodeBlock()) resampler.push(mono, 0, monoLen);
                else resampler.finish();
            }
        }
    }

    /** Decodes, mixes and checks the next block into {@code mono}; false at the end. */
    private boolean decodeBlock() throws IOException {
        if (ended) return false;
        int frames = decoder.read(interleaved, BLOCK_FRAMES);
        if (frames <= 0) {
            ended = true;
            if (framesDecoded == 0)
                throw new AudioFormatException(source + ": no audio (the file holds no complete sample frame)");
            return false;
        }
        int channels = decoder.channels();
        if (channels > 1) {
            double inv = 1.0 / channels;
            for (int f = 0, p = 0; f < frames; f++) {
                double sum = 0;
                for (int c = 0; c < channels; c++) sum += interleaved[p++];
                mono[f] = (float) (sum * inv);
            }
        }
        NonFiniteSamples.check(mono, 0, frames, framesDecoded, decoder.sampleRate(), source);
        framesDecoded += frames;
        monoPos = 0;
        monoLen = frames;
        return true;
    }

    /** Reads everything left into one clip (memory: the whole clip at {@link #sampleRate()}). */
    public AudioClip readAll() throws IOException {
        // a declared length is a hint, never trusted for a large allocation: a header can lie
        long expected = length().orElse(1 << 16) - samplesRead;
        float[] all = new float[(int) Math.clamp(expected, 1, MAX_PREALLOCATED)];
        int at = 0, n;
        while (true) {
            if (at == all.length) {
                if (all.length >= Integer.MAX_VALUE - 16)
                    throw new AudioFormatException(
                            source + ": longer than one clip can hold (2^31 samples); read it as a stream");
                all = Arrays.copyOf(all, (int) Math.min(2L * all.length, Integer.MAX_VALUE - 16));
            }
            if ((n = read(all, at, all.length - at)) < 0) break;
            at += n;
        }
        return new AudioClip(at == all.length ? all : Arrays.copyOf(all, at), rate, decoder.channels());
    }

    @Override
    public void close() throws IOException {
        decoder.close();
    }
}
