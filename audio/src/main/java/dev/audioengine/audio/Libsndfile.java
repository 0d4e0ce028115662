package dev.audioengine.audio;

import dev.audioengine.api.spi.NativeLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * FFM binding to the few libsndfile calls a reader needs (sndfile.h, API stable since 1.0).
 * The library is looked up once, on first use, and stays loaded; the handles are thread-safe,
 * an SNDFILE is not (each {@link SndfileDecoder} owns one).
 */
final class Libsndfile {
    static final List<String> SONAMES = List.of("libsndfile.so.1", "libsndfile.so", "libsndfile.1.dylib");
    static final String DEBIAN_PACKAGE = "libsndfile1";

    static final int SFM_READ = 0x10;
    static final int SFC_GET_FORMAT_INFO = 0x1028;
    static final int SF_FORMAT_TYPEMASK = 0x0FFF0000, SF_FORMAT_SUBMASK = 0x0000FFFF;

    /** SF_INFO: frames (sf_count_t), samplerate, channels, format, sections, seekable. */
    static final StructLayout SF_INFO = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("frames"),
            ValueLayout.JAVA_INT.withName("samplerate"),
            ValueLayout.JAVA_INT.withName("channels"),
            ValueLayout.JAVA_INT.withName("format"),
            ValueLayout.JAVA_INT.withName("sections"),
            ValueLayout.JAVA_INT.withName("seekable"),
            MemoryLayout.paddingLayout(4));
    /** SF_FORMAT_INFO: format, name, extension. */
    static final StructLayout SF_FORMAT_INFO = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("format"), MemoryLayout.paddingLayout(4),
            ValueLayout.ADDRESS.withName("name"), ValueLayout.ADDRESS.withName("extension"));

    final String location;
    final MethodHandle open, openVirtual, readfFloat, close, strerror, command, version;

    private Libsndfile(NativeLibrary lib) {
        Linker linker = Linker.nativeLinker();
        var s = lib.symbols();
        location = lib.location();
        open = linker.downcallHandle(
                s.findOrThrow("sf_open"),
                FunctionDescriptor.of(
                        ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        openVirtual = linker.downcallHandle(
                s.findOrThrow("sf_open_virtual"),
                FunctionDescriptor.of(
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS));
        readfFloat = linker.downcallHandle(
                s.findOrThrow("sf_readf_float"),
                FunctionDescriptor.of(
                        ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        close = linker.downcallHandle(
                s.findOrThrow("sf_close"), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        strerror = linker.downcallHandle(
                s.findOrThrow("sf_strerror"), FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        command = linker.downcallHandle(
                s.findOrThrow("sf_command"),
                FunctionDescriptor.of(
                        ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT));
        version = linker.downcallHandle(s.findOrThrow("sf_version_string"), FunctionDescriptor.of(ValueLayout.ADDRESS));
    }

    private static final class Holder {
        static final Object LOADED = load(SONAMES);
    }

    /** Whether the library loads (for messages that list what is readable). */
    static boolean available() {
        return Holder.LOADED instanceof Libsndfile;
    }

    /** The library, or an exception whose message says what was tried and which package to install. */
    static Libsndfile get(String source, String what) throws AudioFormatException {
        return require(Holder.LOADED, source, what);
    }

    static Libsndfile require(Object loaded, String source, String what) throws AudioFormatException {
        if (loaded instanceof Libsndfile l) return l;
        throw new DecoderRefusedException(source + ": reading " + what
                + " needs libsndfile (WAV in PCM, float, A-law or µ-law" + " does not), which is not available ("
                + loaded + "). Install it: apt-get install " + DEBIAN_PACKAGE + " (Debian/Ubuntu).");
    }

    /** A loaded binding, or the search report (a String) saying why none loaded. */
    static Object load(List<String> sonames) {
        NativeLibrary lib = NativeLibrary.find(sonames, List.of(), "sf_version_string");
        if (!lib.found()) return lib.searchReport();
        try {
            return new Libsndfile(lib);
        } catch (RuntimeException e) { // a library of that name without the calls: not libsndfile
            return lib.location() + " loads but lacks libsndfile's calls (" + e.getMessage() + ")";
        }
    }

    String versionString() {
        try {
            return ((MemorySegment) version.invokeExact()).reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw new IllegalStateException("sf_version_string failed", t);
        }
    }

    /** libsndfile's words for the last error on {@code file} (NULL: the last failed open). */
    String error(MemorySegment file) {
        try {
            MemorySegment m = (MemorySegment) strerror.invokeExact(file);
            return m.equals(MemorySegment.NULL)
                    ? "(no message)"
                    : m.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            return "(sf_strerror failed: " + t + ")";
        }
    }

    /** The name libsndfile gives a major format or subtype code, e.g. "FLAC (Free Lossless Audio Codec)". */
    String formatName(int format) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = arena.allocate(SF_FORMAT_INFO);
            info.set(ValueLayout.JAVA_INT, 0, format);
            int rc = (int)
                    command.invokeExact(MemorySegment.NULL, SFC_GET_FORMAT_INFO, info, (int) SF_FORMAT_INFO.byteSize());
            MemorySegment name = info.get(
                    ValueLayout.ADDRESS, SF_FORMAT_INFO.byteOffset(MemoryLayout.PathElement.groupElement("name")));
            return rc != 0 || name.equals(MemorySegment.NULL)
                    ? "format 0x" + Integer.toHexString(format)
                    : name.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "format 0x" + Integer.toHexString(format);
        }
    }
}
