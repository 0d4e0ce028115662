package dev.audioengine.audio;

import dev.audioengine.api.spi.NativeLibrary;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * FFM binding to the few FFmpeg calls a demuxing, decoding reader needs: libavformat, libavcodec, libswresample and
 * libavutil, looked up once on first use and kept loaded. Optional: without them the formats only FFmpeg reads are
 * refused with a message naming the Debian packages.
 *
 * <p>FFmpeg's structs change layout between major versions, and a few fields have no accessor function (the streams of
 * a format context, a stream's codec parameters, a frame's samples, a packet's stream). This binding reads those at the
 * offsets of FFmpeg 5.1 (libavformat 59, libavcodec 59, libavutil 57, libswresample 4: Debian 12), checked at load
 * against each library's own version call, and refuses any other major with a message instead of reading garbage.
 * Everything else goes through functions ({@code av_opt_get_int}, {@code av_opt_get_chlayout},
 * {@code avcodec_parameters_to_context}, {@code swr_alloc_set_opts2}). The offsets were taken with {@code offsetof}
 * from Debian 12's headers (libavformat-dev 7:5.1).
 *
 * <p>FFmpeg's log goes to a callback that keeps each thread's last error lines (for messages) and prints nothing: a
 * library must not write to the server's or the command's stderr. That callback is process-wide, as FFmpeg's log is.
 */
final class Ffmpeg {
    /** The majors whose struct layouts this binding reads, and the least minors that have its calls (FFmpeg 5.1). */
    static final int AVFORMAT_MAJOR = 59, AVCODEC_MAJOR = 59, AVUTIL_MAJOR = 57, SWRESAMPLE_MAJOR = 4;

    static final int AVUTIL_MIN_MINOR = 24, AVCODEC_MIN_MINOR = 24, SWRESAMPLE_MIN_MINOR = 5;
    static final String DEBIAN_PACKAGES = "libavformat59 libavcodec59 libswresample4 libavutil57";
    /** What FFmpeg adds to WAV and libsndfile, for messages. */
    static final String ADDS =
            "WebM, Matroska (MKV), MP4/M4A/MOV, AAC, AMR, WMA, Ogg with any codec and the sound of" + " video files";

    /** Sonames tried for each library: the major this binding reads first, then others (refused with a message). */
    record Sonames(List<String> avutil, List<String> swresample, List<String> avcodec, List<String> avformat) {
        static Sonames of(String avutil, String swresample, String avcodec, String avformat) {
            return new Sonames(List.of(avutil), List.of(swresample), List.of(avcodec), List.of(avformat));
        }
    }

    static final Sonames SONAMES = new Sonames(
            List.of("libavutil.so.57", "libavutil.so", "libavutil.so.58", "libavutil.so.59", "libavutil.so.60"),
            List.of("libswresample.so.4", "libswresample.so", "libswresample.so.5", "libswresample.so.6"),
            List.of("libavcodec.so.59", "libavcodec.so", "libavcodec.so.60", "libavcodec.so.61", "libavcodec.so.62"),
            List.of(
                    "libavformat.so.59",
                    "libavformat.so",
                    "libavformat.so.60",
                    "libavformat.so.61",
                    "libavformat.so.62"));

    // Constants (FFmpeg 5.1's headers).
    static final int AVERROR_EOF = -541478725, AVERROR_EAGAIN = -11, AVERROR_EIO = -5;
    static final int AVMEDIA_TYPE_AUDIO = 1, AV_SAMPLE_FMT_FLT = 3;
    static final int AV_LOG_ERROR = 16;
    static final int AVPROBE_SCORE_RETRY = 25;
    static final int AVSEEK_SIZE = 0x10000, AVSEEK_FORCE = 0x20000;
    static final int AVFMT_DURATION_FROM_PTS = 0, AVFMT_DURATION_FROM_STREAM = 1;
    static final long AV_NOPTS_VALUE = Long.MIN_VALUE;

    // Struct offsets of libavformat 59 / libavcodec 59 / libavutil 57 (x86-64 and every LP64 ABI).
    static final long FMT_IFORMAT = 8,
            FMT_PB = 32,
            FMT_NB_STREAMS = 44,
            FMT_STREAMS = 48,
            FMT_DURATION = 72,
            FMT_DURATION_ESTIMATION = 272,
            FMT_SIZE = 472;
    static final long IFORMAT_NAME = 0, IFORMAT_LONG_NAME = 8;
    static final long STREAM_TIME_BASE = 16, STREAM_DURATION = 32, STREAM_CODECPAR = 208;
    static final long PAR_CODEC_TYPE = 0, PAR_CODEC_ID = 4;
    static final long FRAME_EXTENDED_DATA = 96, FRAME_NB_SAMPLES = 112, FRAME_FORMAT = 116;
    static final long PACKET_STREAM_INDEX = 36;
    static final long AVIO_BUFFER = 8;
    /** AVChannelLayout (public and fixed since 5.1): order, nb_channels, a mask or map, opaque. */
    static final long CHLAYOUT_SIZE = 24, CHLAYOUT_NB_CHANNELS = 4;

    private static final AddressLayout A = ValueLayout.ADDRESS;
    private static final ValueLayout I = ValueLayout.JAVA_INT;
    private static final ValueLayout L = ValueLayout.JAVA_LONG;

    final String location;
    final String versions;
    // libavutil
    final MethodHandle malloc, freep, strerror, versionInfo, logSetCallback, logFormatLine, frameAlloc, frameFree;
    final MethodHandle frameUnref, optGetInt, optSetInt, optGetChlayout, chlayoutUninit, chlayoutCompare;
    final MethodHandle chlayoutCopy, chlayoutDescribe, sampleFmtName, dictSet, dictFree;
    // libavcodec
    final MethodHandle findDecoder, allocContext, parametersToContext, open2, freeContext, sendPacket, receiveFrame;
    final MethodHandle packetAlloc, packetFree, packetUnref, codecName;
    // libavformat
    final MethodHandle allocFormat, freeFormat, avioAlloc, avioFree, probe, openInput, findStreamInfo, findBestStream;
    final MethodHandle readFrame, closeInput;
    // libswresample
    final MethodHandle swrAllocSetOpts2, swrInit, swrFree, swrConvert, swrGetOutSamples;

    private Ffmpeg(SymbolLookup util, SymbolLookup swr, SymbolLookup codec, SymbolLookup format, String location) {
        this.location = location;
        malloc = h(util, "av_malloc", FunctionDescriptor.of(A, L));
        freep = h(util, "av_freep", FunctionDescriptor.ofVoid(A));
        strerror = h(util, "av_strerror", FunctionDescriptor.of(I, I, A, L));
        versionInfo = h(util, "av_version_info", FunctionDescriptor.of(A));
        logSetCallback = h(util, "av_log_set_callback", FunctionDescriptor.ofVoid(A));
        logFormatLine = h(util, "av_log_format_line2", FunctionDescriptor.of(I, A, I, A, A, A, I, A));
        frameAlloc = h(util, "av_frame_alloc", FunctionDescriptor.of(A));
        frameFree = h(util, "av_frame_free", FunctionDescriptor.ofVoid(A));
        frameUnref = h(util, "av_frame_unref", FunctionDescriptor.ofVoid(A));
        optGetInt = h(util, "av_opt_get_int", FunctionDescriptor.of(I, A, A, I, A));
        optSetInt = h(util, "av_opt_set_int", FunctionDescriptor.of(I, A, A, L, I));
        optGetChlayout = h(util, "av_opt_get_chlayout", FunctionDescriptor.of(I, A, A, I, A));
        chlayoutUninit = h(util, "av_channel_layout_uninit", FunctionDescriptor.ofVoid(A));
        chlayoutCopy = h(util, "av_channel_layout_copy", FunctionDescriptor.of(I, A, A));
        chlayoutCompare = h(util, "av_channel_layout_compare", FunctionDescriptor.of(I, A, A));
        chlayoutDescribe = h(util, "av_channel_layout_describe", FunctionDescriptor.of(I, A, A, L));
        sampleFmtName = h(util, "av_get_sample_fmt_name", FunctionDescriptor.of(A, I));
        dictSet = h(util, "av_dict_set", FunctionDescriptor.of(I, A, A, A, I));
        dictFree = h(util, "av_dict_free", FunctionDescriptor.ofVoid(A));

        findDecoder = h(codec, "avcodec_find_decoder", FunctionDescriptor.of(A, I));
        allocContext = h(codec, "avcodec_alloc_context3", FunctionDescriptor.of(A, A));
        parametersToContext = h(codec, "avcodec_parameters_to_context", FunctionDescriptor.of(I, A, A));
        open2 = h(codec, "avcodec_open2", FunctionDescriptor.of(I, A, A, A));
        freeContext = h(codec, "avcodec_free_context", FunctionDescriptor.ofVoid(A));
        sendPacket = h(codec, "avcodec_send_packet", FunctionDescriptor.of(I, A, A));
        receiveFrame = h(codec, "avcodec_receive_frame", FunctionDescriptor.of(I, A, A));
        packetAlloc = h(codec, "av_packet_alloc", FunctionDescriptor.of(A));
        packetFree = h(codec, "av_packet_free", FunctionDescriptor.ofVoid(A));
        packetUnref = h(codec, "av_packet_unref", FunctionDescriptor.ofVoid(A));
        codecName = h(codec, "avcodec_get_name", FunctionDescriptor.of(A, I));

        allocFormat = h(format, "avformat_alloc_context", FunctionDescriptor.of(A));
        freeFormat = h(format, "avformat_free_context", FunctionDescriptor.ofVoid(A));
        avioAlloc = h(format, "avio_alloc_context", FunctionDescriptor.of(A, A, I, I, A, A, A, A));
        avioFree = h(format, "avio_context_free", FunctionDescriptor.ofVoid(A));
        probe = h(format, "av_probe_input_buffer2", FunctionDescriptor.of(I, A, A, A, A, I, I));
        openInput = h(format, "avformat_open_input", FunctionDescriptor.of(I, A, A, A, A));
        findStreamInfo = h(format, "avformat_find_stream_info", FunctionDescriptor.of(I, A, A));
        findBestStream = h(format, "av_find_best_stream", FunctionDescriptor.of(I, A, I, I, I, A, I));
        readFrame = h(format, "av_read_frame", FunctionDescriptor.of(I, A, A));
        closeInput = h(format, "avformat_close_input", FunctionDescriptor.ofVoid(A));

        swrAllocSetOpts2 = h(swr, "swr_alloc_set_opts2", FunctionDescriptor.of(I, A, A, I, I, A, I, I, I, A));
        swrInit = h(swr, "swr_init", FunctionDescriptor.of(I, A));
        swrFree = h(swr, "swr_free", FunctionDescriptor.ofVoid(A));
        swrConvert = h(swr, "swr_convert", FunctionDescriptor.of(I, A, A, I, A, I));
        swrGetOutSamples = h(swr, "swr_get_out_samples", FunctionDescriptor.of(I, A, I));

        String info;
        try {
            info = ((MemorySegment) versionInfo.invokeExact()).reinterpret(256).getString(0);
        } catch (Throwable t) {
            info = "?";
        }
        versions = "FFmpeg " + info;
    }

    private static MethodHandle h(SymbolLookup lookup, String name, FunctionDescriptor d) {
        return Linker.nativeLinker().downcallHandle(lookup.findOrThrow(name), d);
    }

    private static final class Holder {
        static final Object LOADED = load(SONAMES);
    }

    /** The libraries, or an exception whose message says what was tried and which packages to install. */
    static Ffmpeg get(String source) throws AudioFormatException {
        return require(Holder.LOADED, source);
    }

    /** Whether the libraries load (for messages that say what installing them adds). */
    static boolean available() {
        return Holder.LOADED instanceof Ffmpeg;
    }

    /** Why the libraries are not used, or null when they are. */
    static String unavailableReason() {
        return Holder.LOADED instanceof String s ? s : null;
    }

    static Ffmpeg require(Object loaded, String source) throws AudioFormatException {
        if (loaded instanceof Ffmpeg f) return f;
        throw new DecoderRefusedException(source + ": " + missing(loaded));
    }

    /** The sentence for missing libraries: what was tried, the packages, and what they add. */
    static String missing(Object report) {
        return "FFmpeg's libraries, which read " + ADDS + ", are not available (" + report + "). Install them: apt-get"
                + " install " + DEBIAN_PACKAGES + " (Debian 12: FFmpeg 5.1; this build reads FFmpeg 5.1's"
                + " structures and refuses other versions).";
    }

    /** A loaded binding, or the search report (a String) saying why none is used. */
    static Object load(Sonames sonames) {
        List<String> report = new ArrayList<>();
        NativeLibrary util = find(sonames.avutil(), "avutil_version", report);
        NativeLibrary swr = find(sonames.swresample(), "swresample_version", report);
        NativeLibrary codec = find(sonames.avcodec(), "avcodec_version", report);
        NativeLibrary format = find(sonames.avformat(), "avformat_version", report);
        if (!report.isEmpty()) return String.join("; ", report);
        String versions = java.util.stream.Stream.of(
                        checkVersion(util, "avutil", AVUTIL_MAJOR, AVUTIL_MIN_MINOR),
                        checkVersion(swr, "swresample", SWRESAMPLE_MAJOR, SWRESAMPLE_MIN_MINOR),
                        checkVersion(codec, "avcodec", AVCODEC_MAJOR, AVCODEC_MIN_MINOR),
                        checkVersion(format, "avformat", AVFORMAT_MAJOR, 0))
                .filter(v -> !v.isEmpty())
                .collect(java.util.stream.Collectors.joining(","));
        if (!versions.isEmpty())
            return "found " + format.location() + " and its siblings, but" + versions
                    + "; this build reads the structures of FFmpeg 5.1 (libavformat 59, libavcodec 59, libavutil 57,"
                    + " libswresample 4) only, and refuses others rather than misread them";
        try {
            Ffmpeg f = new Ffmpeg(util.symbols(), swr.symbols(), codec.symbols(), format.symbols(), format.location());
            f.installLog();
            return f;
        } catch (RuntimeException e) { // a library of that name without the calls
            return format.location() + " loads but lacks FFmpeg 5.1's calls (" + e.getMessage() + ")";
        }
    }

    private static NativeLibrary find(List<String> sonames, String anchor, List<String> report) {
        NativeLibrary lib = NativeLibrary.find(sonames, List.of(), anchor);
        if (!lib.found()) report.add(lib.searchReport());
        return lib;
    }

    /** "" when the library's version is one this binding reads, else a clause saying what was found. */
    static String checkVersion(NativeLibrary lib, String name, int major, int minMinor) {
        int v;
        try {
            v = (int) Linker.nativeLinker()
                    .downcallHandle(lib.symbols().findOrThrow(name + "_version"), FunctionDescriptor.of(I))
                    .invokeExact();
        } catch (Throwable t) {
            return " " + lib.location() + " has no " + name + "_version";
        }
        int got = v >>> 16, minor = (v >>> 8) & 0xFF;
        if (got == major && minor >= minMinor) return "";
        return " lib" + name + " is " + got + "." + minor + " (" + lib.location() + "; needs " + major + "." + minMinor
                + " or a later " + major + ".x)";
    }

    // -------------------------------------------------------------------------------------------------------------
    // The log: FFmpeg's error lines, kept per thread (the thread that made the call that logged), never printed.

    private static final int LOG_LINES = 6;
    private static final ThreadLocal<ArrayDeque<String>> LOG = ThreadLocal.withInitial(ArrayDeque::new);
    private static volatile MethodHandle logFormatter;

    private void installLog() {
        try {
            MethodHandle cb = MethodHandles.lookup()
                    .findStatic(
                            Ffmpeg.class,
                            "log",
                            MethodType.methodType(
                                    void.class,
                                    MemorySegment.class,
                                    int.class,
                                    MemorySegment.class,
                                    MemorySegment.class));
            // va_list reaches the callback as a pointer (x86-64: an array that decays; AArch64: a large struct
            // passed by reference) and goes on, untouched, to av_log_format_line2
            MemorySegment stub =
                    Linker.nativeLinker().upcallStub(cb, FunctionDescriptor.ofVoid(A, I, A, A), Arena.global());
            logFormatter = logFormatLine;
            logSetCallback.invokeExact(stub);
        } catch (Throwable t) {
            throw new IllegalStateException("av_log_set_callback failed", t);
        }
    }

    /** The callback: formats error lines into this thread's log. Never throws into native code. */
    private static void log(MemorySegment avcl, int level, MemorySegment fmt, MemorySegment vl) {
        if (level > AV_LOG_ERROR) return;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment line = a.allocate(512), prefix = a.allocate(I);
            prefix.set(ValueLayout.JAVA_INT, 0, 0); // no "[component @ 0x...]" prefix
            int unused = (int) logFormatter.invokeExact(avcl, level, fmt, vl, line, 512, prefix);
            String s = line.getString(0).strip();
            if (s.isEmpty()) return;
            ArrayDeque<String> q = LOG.get();
            if (q.size() == LOG_LINES) q.removeFirst();
            q.addLast(s);
        } catch (Throwable ignored) {
            // a lost log line costs only a message's detail
        }
    }

    /** This thread's error lines since the last call, oldest first, and forgets them. */
    static List<String> takeLog() {
        ArrayDeque<String> q = LOG.get();
        List<String> lines = List.copyOf(q);
        q.clear();
        return lines;
    }

    // -------------------------------------------------------------------------------------------------------------

    /** FFmpeg's words for an error code, with the error lines it logged meanwhile (they often say more). */
    String error(int code) {
        String words;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(256);
            int rc = (int) strerror.invokeExact(code, buf, 256L);
            words = rc < 0 ? "error " + code : buf.getString(0);
        } catch (Throwable t) {
            words = "error " + code;
        }
        List<String> log = takeLog();
        if (log.isEmpty() || log.contains(words)) return words;
        return String.join("; ", log) + " (" + words + ")";
    }

    String codecName(int id) {
        try {
            MemorySegment s = (MemorySegment) codecName.invokeExact(id);
            return s.equals(MemorySegment.NULL)
                    ? "codec " + id
                    : s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "codec " + id;
        }
    }

    String sampleFormatName(int format) {
        try {
            MemorySegment s = (MemorySegment) sampleFmtName.invokeExact(format);
            return s.equals(MemorySegment.NULL)
                    ? "format " + format
                    : s.reinterpret(64).getString(0);
        } catch (Throwable t) {
            return "format " + format;
        }
    }

    /** "stereo", "5.1(side)", "2 channels". */
    String describeLayout(MemorySegment layout) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(128);
            int rc = (int) chlayoutDescribe.invokeExact(layout, buf, 128L);
            return rc < 0 ? layout.get(ValueLayout.JAVA_INT, CHLAYOUT_NB_CHANNELS) + " channels" : buf.getString(0);
        } catch (Throwable t) {
            return layout.get(ValueLayout.JAVA_INT, CHLAYOUT_NB_CHANNELS) + " channels";
        }
    }
}
