package dev.audioengine.audio;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Every container and codec FFmpeg reads (WebM and Matroska, MP4/M4A/MOV, Ogg with any codec, AAC, AMR, WMA, the sound
 * of a video file, ...), demuxed and decoded a packet at a time and converted by libswresample to interleaved float at
 * the rate and channel layout of the first decoded frame (a stream that changes either midway is converted to the
 * first, with a warning). One audio stream is decoded: FFmpeg's best, or the N-th.
 *
 * <p>Memory is bounded by FFmpeg's I/O buffer, its probe (5 MB at most) and one frame. Every native object (the format
 * and codec contexts, the I/O context and its buffer, packet, frame, resampler, channel layouts) is owned by this
 * decoder and freed by {@link #close()}, which a failed open calls too. Not thread-safe.
 */
final class FfmpegDecoder implements FrameDecoder {
    /** Best audio stream (FFmpeg's av_find_best_stream), for {@code audioStream}. */
    static final int BEST = -1;

    private static final int IO_BUFFER = 1 << 16;
    /** Packets in a row the decoder may refuse before the input is declared undecodable. */
    private static final int MAX_BAD_PACKETS = 200;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final AddressLayout ADDRESS = ValueLayout.ADDRESS;
    /** Option names, read-only C strings shared by every decoder. */
    private static final MemorySegment AR = Arena.global().allocateFrom("ar"),
            CH_LAYOUT = Arena.global().allocateFrom("ch_layout"),
            THREADS = Arena.global().allocateFrom("threads"),
            PROTOCOL_WHITELIST = Arena.global().allocateFrom("protocol_whitelist"),
            NONE = Arena.global().allocateFrom("none"),
            EMPTY = Arena.global().allocateFrom("");

    private final Ffmpeg ff;
    private final FfmpegInput input;
    private final String source;
    private final Consumer<String> warnings;
    private final Arena arena = Arena.ofShared();
    /** Pointer slots for the av*_free(&p) calls, and the resampler's output-plane array. */
    private final MemorySegment slot, planes, value;
    /** AVChannelLayouts: the resampler's input and output, and the one read from the decoder for each frame. */
    private final MemorySegment inLayout, outLayout, frameLayout;

    // Native objects; NULL until made, NULL again once freed.
    private MemorySegment avio = MemorySegment.NULL,
            format = MemorySegment.NULL,
            codec = MemorySegment.NULL,
            frame = MemorySegment.NULL,
            packet = MemorySegment.NULL,
            swr = MemorySegment.NULL;
    private boolean formatOpened, closed;
    private int streamIndex, audioStreamNumber, audioStreams;
    private String container = "?", codecName = "?";
    private int rate, channels, inRate, inFormat = -1;
    private MemorySegment out = MemorySegment.NULL; // interleaved float frames, converted and not yet read
    private int outCapacity, outFrames, outPos;
    private boolean draining, ended, changeWarned;
    private int badInARow, badTotal;
    private String firstBad, readError;
    private long framesOut;
    private double declaredSeconds = -1;

    private FfmpegDecoder(Ffmpeg ff, FfmpegInput input, String source, Consumer<String> warnings) {
        this.ff = ff;
        this.input = input;
        this.source = source;
        this.warnings = warnings;
        slot = arena.allocate(ADDRESS);
        planes = arena.allocate(ADDRESS);
        value = arena.allocate(LONG);
        inLayout = arena.allocate(Ffmpeg.CHLAYOUT_SIZE, 8);
        outLayout = arena.allocate(Ffmpeg.CHLAYOUT_SIZE, 8);
        frameLayout = arena.allocate(Ffmpeg.CHLAYOUT_SIZE, 8);
    }

    /** Opens a file; {@code audioStream} is the index among its audio streams, or {@link #BEST}. */
    static FfmpegDecoder open(Path file, String source, int audioStream, Consumer<String> warnings) throws IOException {
        Ffmpeg ff = Ffmpeg.get(source);
        return open(ff, FfmpegInput.of(file), source, audioStream, warnings);
    }

    /** Opens a stream, read front to back from its first byte. */
    static FfmpegDecoder open(InputStream in, String source, int audioStream, Consumer<String> warnings)
            throws IOException {
        Ffmpeg ff = Ffmpeg.get(source);
        return open(ff, FfmpegInput.of(in), source, audioStream, warnings);
    }

    private static FfmpegDecoder open(
            Ffmpeg ff, FfmpegInput input, String source, int audioStream, Consumer<String> warnings)
            throws IOException {
        FfmpegDecoder d;
        try {
            d = new FfmpegDecoder(ff, input, source, warnings);
        } catch (RuntimeException e) {
            input.close();
            throw e;
        }
        try {
            Ffmpeg.takeLog(); // this thread's earlier lines are not this file's
            d.openContainer();
            d.chooseStream(audioStream);
            d.openCodec();
            d.firstFrame();
            return d;
        } catch (Throwable t) {
            try {
                d.close();
            } catch (IOException | RuntimeException suppressed) {
                t.addSuppressed(suppressed);
            }
            if (t instanceof IOException e) throw e;
            if (t instanceof RuntimeException e) throw e;
            if (t instanceof Error e) throw e;
            throw new IllegalStateException(t);
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Opening

    private void openContainer() throws Throwable {
        MemorySegment buffer = (MemorySegment) ff.malloc.invokeExact((long) IO_BUFFER);
        if (buffer.equals(MemorySegment.NULL)) throw new OutOfMemoryError("av_malloc of FFmpeg's I/O buffer");
        MemorySegment seek = input.seekable() ? FfmpegInput.SEEK : MemorySegment.NULL;
        avio = (MemorySegment) ff.avioAlloc.invokeExact(
                buffer, IO_BUFFER, 0, input.opaque(), FfmpegInput.READ, MemorySegment.NULL, seek);
        if (avio.equals(MemorySegment.NULL)) {
            slot.set(ADDRESS, 0, buffer);
            ff.freep.invokeExact(slot);
            throw new OutOfMemoryError("avio_alloc_context");
        }
        format = (MemorySegment) ff.allocFormat.invokeExact();
        if (format.equals(MemorySegment.NULL)) throw new OutOfMemoryError("avformat_alloc_context");
        format = format.reinterpret(Ffmpeg.FMT_SIZE);
        format.set(ADDRESS, Ffmpeg.FMT_PB, avio);

        // Recognize the content (no file name: no extension to go by), and refuse a weak guess: FFmpeg takes any
        // score above 0 at the end of its probe, so noise could otherwise "be" MP3 or raw AAC.
        slot.set(ADDRESS, 0, MemorySegment.NULL);
        int score = (int) ff.probe.invokeExact(avio, slot, EMPTY, MemorySegment.NULL, 0, 0);
        ioFailure();
        if (score < 0) throw refused("not a format FFmpeg recognizes (" + ff.error(score) + ")");
        MemorySegment iformat = slot.get(ADDRESS, 0).reinterpret(16);
        String name = string(iformat.get(ADDRESS, Ffmpeg.IFORMAT_NAME));
        container = string(iformat.get(ADDRESS, Ffmpeg.IFORMAT_LONG_NAME));
        if (score <= Ffmpeg.AVPROBE_SCORE_RETRY)
            throw refused("FFmpeg only guesses it might be " + container + " (" + name + "; probe score " + score
                    + " of 100), too weakly to decode it");

        // No protocol at all for anything the file names (HLS, concat, references in MOV): this input only.
        MemorySegment options = arena.allocate(ADDRESS);
        int rc = (int) ff.dictSet.invokeExact(options, PROTOCOL_WHITELIST, NONE, 0);
        if (rc < 0) throw new IOException(source + ": av_dict_set: " + ff.error(rc));
        MemorySegment fmtSlot = arena.allocate(ADDRESS);
        fmtSlot.set(ADDRESS, 0, format);
        rc = (int) ff.openInput.invokeExact(fmtSlot, EMPTY, iformat, options);
        ff.dictFree.invokeExact(options);
        // on failure FFmpeg has freed the context (not our I/O context) and set the slot to NULL
        format = fmtSlot.get(ADDRESS, 0);
        if (!format.equals(MemorySegment.NULL)) format = format.reinterpret(Ffmpeg.FMT_SIZE);
        formatOpened = !format.equals(MemorySegment.NULL);
        ioFailure();
        if (rc < 0) throw refused(container + ", but FFmpeg cannot open it: " + ff.error(rc));
        rc = (int) ff.findStreamInfo.invokeExact(format, MemorySegment.NULL);
        ioFailure();
        if (rc < 0) throw refused(container + ", but FFmpeg cannot read its streams: " + ff.error(rc));
    }

    private void chooseStream(int wanted) throws Throwable {
        int n = format.get(INT, Ffmpeg.FMT_NB_STREAMS);
        MemorySegment streams = format.get(ADDRESS, Ffmpeg.FMT_STREAMS).reinterpret(8L * n);
        List<Integer> audio = new ArrayList<>();
        for (int i = 0; i < n; i++)
            if (parameters(streams, i).get(INT, Ffmpeg.PAR_CODEC_TYPE) == Ffmpeg.AVMEDIA_TYPE_AUDIO) audio.add(i);
        audioStreams = audio.size();
        if (audio.isEmpty())
            throw refused(container + " with " + n + " stream" + (n == 1 ? "" : "s") + ", none of them audio");
        if (wanted >= audioStreams)
            throw new AudioFormatException(
                    source + ": there is no audio stream " + wanted + ": it has " + count() + " (" + container + ")");
        if (wanted >= 0) {
            streamIndex = audio.get(wanted);
        } else {
            int best = (int)
                    ff.findBestStream.invokeExact(format, Ffmpeg.AVMEDIA_TYPE_AUDIO, -1, -1, MemorySegment.NULL, 0);
            // no decoder for the best one: go on with the first, whose missing decoder openCodec names
            streamIndex = best >= 0 ? best : audio.getFirst();
            Ffmpeg.takeLog();
        }
        audioStreamNumber = audio.indexOf(streamIndex);
        codecName = ff.codecName(parameters(streams, streamIndex).get(INT, Ffmpeg.PAR_CODEC_ID));
        declaredSeconds = declaredSeconds(streams.getAtIndex(ADDRESS, streamIndex), n);
    }

    /**
     * How long the chosen stream says it is, for the truncation warning, or -1: the stream's own duration, else the
     * file's when the stream is its only one (a video's may be longer than its sound), never one FFmpeg estimated from
     * the bit rate.
     */
    private double declaredSeconds(MemorySegment stream, int streams) {
        stream = stream.reinterpret(Ffmpeg.STREAM_DURATION + 8);
        long duration = stream.get(ValueLayout.JAVA_LONG, Ffmpeg.STREAM_DURATION);
        int num = stream.get(INT, Ffmpeg.STREAM_TIME_BASE), den = stream.get(INT, Ffmpeg.STREAM_TIME_BASE + 4);
        if (duration > 0 && duration != Ffmpeg.AV_NOPTS_VALUE && num > 0 && den > 0)
            return duration * (double) num / den;
        long whole = format.get(ValueLayout.JAVA_LONG, Ffmpeg.FMT_DURATION);
        int how = format.get(INT, Ffmpeg.FMT_DURATION_ESTIMATION);
        if (streams == 1
                && whole > 0
                && whole != Ffmpeg.AV_NOPTS_VALUE
                && (how == Ffmpeg.AVFMT_DURATION_FROM_PTS || how == Ffmpeg.AVFMT_DURATION_FROM_STREAM))
            return whole / 1e6;
        return -1;
    }

    private String count() {
        return audioStreams == 1
                ? "1 audio stream (number 0)"
                : audioStreams + " audio streams (numbers 0 to " + (audioStreams - 1) + ")";
    }

    private static MemorySegment parameters(MemorySegment streams, int i) {
        MemorySegment stream = streams.getAtIndex(ADDRESS, i).reinterpret(Ffmpeg.STREAM_CODECPAR + 8);
        return stream.get(ADDRESS, Ffmpeg.STREAM_CODECPAR).reinterpret(8);
    }

    private void openCodec() throws Throwable {
        int n = format.get(INT, Ffmpeg.FMT_NB_STREAMS);
        MemorySegment streams = format.get(ADDRESS, Ffmpeg.FMT_STREAMS).reinterpret(8L * n);
        MemorySegment par = parameters(streams, streamIndex);
        MemorySegment decoder = (MemorySegment) ff.findDecoder.invokeExact(par.get(INT, Ffmpeg.PAR_CODEC_ID));
        if (decoder.equals(MemorySegment.NULL))
            throw refused(container + " with " + codecName + " audio, which this FFmpeg has no decoder for");
        codec = (MemorySegment) ff.allocContext.invokeExact(decoder);
        if (codec.equals(MemorySegment.NULL)) throw new OutOfMemoryError("avcodec_alloc_context3");
        int rc = (int) ff.parametersToContext.invokeExact(codec, par);
        if (rc < 0) throw refused(container + ", " + codecName + ": " + ff.error(rc));
        // one thread: the decoder's callbacks (the log) stay on the reading thread, and audio gains little
        rc = (int) ff.optSetInt.invokeExact(codec, THREADS, 1L, 0);
        rc = (int) ff.open2.invokeExact(codec, decoder, MemorySegment.NULL);
        if (rc < 0)
            throw refused(container + ", but FFmpeg cannot open its " + codecName + " decoder: " + ff.error(rc));
        frame = (MemorySegment) ff.frameAlloc.invokeExact();
        packet = (MemorySegment) ff.packetAlloc.invokeExact();
        if (frame.equals(MemorySegment.NULL) || packet.equals(MemorySegment.NULL))
            throw new OutOfMemoryError("av_frame_alloc/av_packet_alloc");
        frame = frame.reinterpret(Ffmpeg.FRAME_FORMAT + 4);
        packet = packet.reinterpret(Ffmpeg.PACKET_STREAM_INDEX + 4);
    }

    /** Decodes up to the first frame, whose rate and layout become the output's. */
    private void firstFrame() throws IOException {
        if (!decodeMore() || outFrames == 0) {
            String why = firstBad != null ? ": " + firstBad : readError != null ? ": " + readError : "";
            String hint = input.seekable()
                    ? ""
                    : " (read as a stream, front to back: a container whose index follows the samples, such as an MP4"
                            + " or M4A written without faststart, needs a file)";
            throw new AudioFormatException(source + ": " + container + " with " + codecName
                    + " audio, but no audio could be decoded" + why + hint);
        }
    }

    private AudioFormatException refused(String what) {
        return new DecoderRefusedException(source + ": " + what);
    }

    private void ioFailure() throws IOException {
        if (input.failure() != null)
            throw new IOException(
                    source + ": reading it failed: " + input.failure().getMessage(), input.failure());
    }

    private static String string(MemorySegment s) {
        return s.equals(MemorySegment.NULL) ? "?" : s.reinterpret(1024).getString(0);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Decoding

    @Override
    public int read(float[] dst, int maxFrames) throws IOException {
        while (outPos == outFrames) if (!decodeMore()) return end();
        int n = Math.min(maxFrames, outFrames - outPos);
        MemorySegment.copy(out, ValueLayout.JAVA_FLOAT, (long) outPos * channels * Float.BYTES, dst, 0, n * channels);
        outPos += n;
        return n;
    }

    private int end() {
        if (declaredSeconds > 0 && rate > 0) {
            double got = framesOut / (double) rate;
            if (got < declaredSeconds - Math.max(0.5, 0.02 * declaredSeconds))
                warnings.accept(String.format(
                        Locale.ROOT,
                        "%s: truncated: %s declares %.2f s but only %.2f s could be decoded",
                        source,
                        container,
                        declaredSeconds,
                        got));
            declaredSeconds = -1; // once
        }
        if (badTotal > 0 && firstBad != null) {
            warnings.accept(source + ": " + badTotal + " damaged packet" + (badTotal == 1 ? "" : "s")
                    + " skipped (FFmpeg's " + codecName + " decoder: " + firstBad + ")");
            firstBad = null;
        }
        return -1;
    }

    /** Decodes and converts until some frames wait in {@link #out}; false at the end. */
    private boolean decodeMore() throws IOException {
        outPos = outFrames = 0;
        try {
            while (!ended) {
                int rc = (int) ff.receiveFrame.invokeExact(codec, frame);
                if (rc == 0) {
                    badInARow = 0;
                    convert();
                    ff.frameUnref.invokeExact(frame);
                    if (outFrames > 0) return true;
                } else if (rc == Ffmpeg.AVERROR_EOF) {
                    flushResampler();
                    ended = true;
                } else if (rc != Ffmpeg.AVERROR_EAGAIN) {
                    bad(rc);
                } else if (draining) {
                    ended = true; // a decoder that drains without saying EOF
                } else {
                    feed();
                }
            }
            return outFrames > 0;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("FFmpeg call failed", t);
        }
    }

    /** Sends the next packet of the chosen stream to the decoder, or the end. */
    private void feed() throws Throwable {
        while (true) {
            int rc = (int) ff.readFrame.invokeExact(format, packet);
            ioFailure();
            if (rc < 0) {
                if (rc != Ffmpeg.AVERROR_EOF) {
                    readError = ff.error(rc);
                    if (framesOut > 0)
                        warnings.accept(source + ": the " + container + " could not be read to its end (" + readError
                                + "); decoded what came before");
                }
                int unused = (int) ff.sendPacket.invokeExact(codec, MemorySegment.NULL);
                draining = true;
                return;
            }
            boolean ours = packet.get(INT, Ffmpeg.PACKET_STREAM_INDEX) == streamIndex;
            if (ours) rc = (int) ff.sendPacket.invokeExact(codec, packet);
            ff.packetUnref.invokeExact(packet);
            if (!ours) continue;
            if (rc < 0 && rc != Ffmpeg.AVERROR_EAGAIN) bad(rc);
            return;
        }
    }

    /** A packet or frame the decoder refused: skipped, as FFmpeg's own command does, unless nothing else decodes. */
    private void bad(int rc) throws AudioFormatException {
        badTotal++;
        String why = ff.error(rc);
        if (firstBad == null) firstBad = why;
        if (++badInARow > MAX_BAD_PACKETS)
            throw new AudioFormatException(source + ": " + container + " with " + codecName + " audio, but "
                    + MAX_BAD_PACKETS + " packets in a row could not be decoded (" + why + ")");
    }

    /** Converts the decoded frame into {@link #out}, first setting up (or redoing) the resampler for its format. */
    private void convert() throws Throwable {
        int samples = frame.get(INT, Ffmpeg.FRAME_NB_SAMPLES);
        int fmt = frame.get(INT, Ffmpeg.FRAME_FORMAT);
        if (samples <= 0) return;
        int rc = (int) ff.optGetInt.invokeExact(codec, AR, 0, value);
        int frameRate = rc < 0 ? 0 : (int) value.get(LONG, 0);
        ff.chlayoutUninit.invokeExact(frameLayout);
        rc = (int) ff.optGetChlayout.invokeExact(codec, CH_LAYOUT, 0, frameLayout);
        if (rc < 0) throw new AudioFormatException(source + ": FFmpeg gives no channel layout: " + ff.error(rc));
        if (swr.equals(MemorySegment.NULL)) {
            channels = frameLayout.get(INT, Ffmpeg.CHLAYOUT_NB_CHANNELS);
            rate = frameRate;
            if (channels < 1 || channels > 1024) throw new AudioFormatException(source + ": " + channels + " channels");
            SampleRateRange.check(Integer.toUnsignedLong(rate), source);
            copyLayout(frameLayout, outLayout);
            setUpResampler(fmt, frameRate);
        } else if (fmt != inFormat
                || frameRate != inRate
                || (int) ff.chlayoutCompare.invokeExact(frameLayout, inLayout) != 0) {
            SampleRateRange.check(Integer.toUnsignedLong(frameRate), source);
            flushResampler();
            if (!changeWarned) {
                changeWarned = true;
                warnings.accept(String.format(
                        Locale.ROOT,
                        "%s: the audio changes midway (at %.2f s) from %d Hz %s to %d Hz %s; converted to the first",
                        source,
                        (framesOut + outFrames) / (double) rate,
                        inRate,
                        ff.describeLayout(inLayout),
                        frameRate,
                        ff.describeLayout(frameLayout)));
            }
            slot.set(ADDRESS, 0, swr);
            ff.swrFree.invokeExact(slot);
            swr = MemorySegment.NULL;
            setUpResampler(fmt, frameRate);
        }
        int room = (int) ff.swrGetOutSamples.invokeExact(swr, samples);
        if (room < 0) throw new AudioFormatException(source + ": swr_get_out_samples: " + ff.error(room));
        reserve(outFrames + room);
        planes.set(ADDRESS, 0, out.asSlice((long) outFrames * channels * Float.BYTES));
        MemorySegment in = frame.reinterpret(Ffmpeg.FRAME_EXTENDED_DATA + 8).get(ADDRESS, Ffmpeg.FRAME_EXTENDED_DATA);
        int got = (int) ff.swrConvert.invokeExact(swr, planes, room, in, samples);
        if (got < 0) throw new AudioFormatException(source + ": swr_convert: " + ff.error(got));
        outFrames += got;
        framesOut += got;
    }

    private void setUpResampler(int fmt, int frameRate) throws Throwable {
        copyLayout(frameLayout, inLayout);
        slot.set(ADDRESS, 0, MemorySegment.NULL);
        int rc = (int) ff.swrAllocSetOpts2.invokeExact(
                slot, outLayout, Ffmpeg.AV_SAMPLE_FMT_FLT, rate, inLayout, fmt, frameRate, 0, MemorySegment.NULL);
        swr = slot.get(ADDRESS, 0);
        if (rc >= 0) rc = (int) ff.swrInit.invokeExact(swr);
        if (rc < 0)
            throw new AudioFormatException(source + ": cannot convert " + codecName + "'s "
                    + ff.sampleFormatName(fmt) + " " + ff.describeLayout(inLayout) + " at " + frameRate + " Hz to "
                    + ff.describeLayout(outLayout) + " at " + rate + " Hz: " + ff.error(rc));
        inFormat = fmt;
        inRate = frameRate;
    }

    /** Frees {@code to}'s contents and makes it a copy of {@code from} (a custom layout's map is copied by FFmpeg). */
    private void copyLayout(MemorySegment from, MemorySegment to) throws Throwable {
        ff.chlayoutUninit.invokeExact(to);
        int rc = (int) ff.chlayoutCopy.invokeExact(to, from);
        if (rc < 0) throw new AudioFormatException(source + ": av_channel_layout_copy: " + ff.error(rc));
    }

    /** What the resampler still holds (only after a change of rate): appended to {@link #out}. */
    private void flushResampler() throws Throwable {
        if (swr.equals(MemorySegment.NULL)) return;
        int room = (int) ff.swrGetOutSamples.invokeExact(swr, 0);
        if (room <= 0) return;
        reserve(outFrames + room);
        planes.set(ADDRESS, 0, out.asSlice((long) outFrames * channels * Float.BYTES));
        int got = (int) ff.swrConvert.invokeExact(swr, planes, room, MemorySegment.NULL, 0);
        if (got > 0) {
            outFrames += got;
            framesOut += got;
        }
    }

    private void reserve(int frames) {
        if (frames <= outCapacity) return;
        int capacity = Math.max(frames, Math.max(4096, outCapacity * 2));
        MemorySegment bigger = arena.allocate((long) capacity * channels * Float.BYTES, 16);
        if (outFrames > 0) MemorySegment.copy(out, 0, bigger, 0, (long) outFrames * channels * Float.BYTES);
        out = bigger;
        outCapacity = capacity;
    }

    // ---------------------------------------------------------------------------------------------------------------

    @Override
    public int sampleRate() {
        return rate;
    }

    @Override
    public int channels() {
        return channels;
    }

    @Override
    public long frames() {
        return -1; // a container's duration is not an exact sample count (codec delay, priming): not declared
    }

    @Override
    public String description() {
        return container + ", " + codecName + " (" + ff.versions + "; audio stream " + audioStreamNumber + " of "
                + audioStreams + ")";
    }

    /** Audio streams in the input. */
    int audioStreams() {
        return audioStreams;
    }

    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        try {
            if (!frame.equals(MemorySegment.NULL)) {
                slot.set(ADDRESS, 0, frame);
                ff.frameFree.invokeExact(slot);
            }
            if (!packet.equals(MemorySegment.NULL)) {
                slot.set(ADDRESS, 0, packet);
                ff.packetFree.invokeExact(slot);
            }
            if (!codec.equals(MemorySegment.NULL)) {
                slot.set(ADDRESS, 0, codec);
                ff.freeContext.invokeExact(slot);
            }
            if (!swr.equals(MemorySegment.NULL)) {
                slot.set(ADDRESS, 0, swr);
                ff.swrFree.invokeExact(slot);
            }
            if (!format.equals(MemorySegment.NULL)) {
                if (formatOpened) {
                    slot.set(ADDRESS, 0, format);
                    ff.closeInput.invokeExact(slot); // leaves our I/O context alone (custom I/O)
                } else {
                    ff.freeFormat.invokeExact(format);
                }
            }
            if (!avio.equals(MemorySegment.NULL)) {
                // FFmpeg may have replaced the buffer it was given: free the one it holds now
                ff.freep.invokeExact(avio.reinterpret(Ffmpeg.AVIO_BUFFER + 8).asSlice(Ffmpeg.AVIO_BUFFER));
                slot.set(ADDRESS, 0, avio);
                ff.avioFree.invokeExact(slot);
            }
            ff.chlayoutUninit.invokeExact(inLayout);
            ff.chlayoutUninit.invokeExact(outLayout);
            ff.chlayoutUninit.invokeExact(frameLayout);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("freeing FFmpeg's objects failed", t);
        } finally {
            frame = packet = codec = swr = format = avio = MemorySegment.NULL;
            Ffmpeg.takeLog();
            try {
                input.close();
            } finally {
                arena.close();
            }
        }
    }
}
