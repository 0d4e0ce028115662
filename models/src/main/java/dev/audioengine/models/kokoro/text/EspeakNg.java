package dev.audioengine.models.kokoro.text;

import dev.audioengine.api.spi.NativeLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * FFM binding to libespeak-ng's text-to-phoneme call (speak_lib.h, API revision 12, espeak-ng 1.49 and later; 1.51
 * has no espeak_TextToPhonemesWithTerminator, so none is used). The library is loaded and initialized once per
 * process, on first use, and stays loaded.
 *
 * <p>Thread-safe: espeak keeps the selected voice and the translator in globals, so every call runs under one
 * process-wide lock. Nothing else in the process should call libespeak-ng directly.
 */
public final class EspeakNg {
    static final List<String> SONAMES = List.of("libespeak-ng.so.1", "libespeak-ng.so");
    static final String DEBIAN_PACKAGE = "libespeak-ng1";
    static final String DATA_PACKAGE = "espeak-ng-data";
    /** What every "cannot use espeak" message ends with: the library and its data are two Debian packages. */
    static final String INSTALL = "install Debian's " + DEBIAN_PACKAGE + " and " + DATA_PACKAGE + " (apt-get install "
            + DEBIAN_PACKAGE + " " + DATA_PACKAGE + ")";

    /** The tie espeak writes between the letters of one multi-letter phoneme (as phonemizer asks for it). */
    public static final char TIE = '\u0361';

    private static final int AUDIO_OUTPUT_SYNCHRONOUS = 2; // no audio thread; only phonemes are asked for
    private static final int INITIALIZE_DONT_EXIT = 0x8000; // missing data must come back as an error, not exit()
    private static final int CHARS_UTF8 = 1;
    private static final int PHONEMES_IPA = 0x02, PHONEMES_TIE = 0x80;
    /** Bits 8-23 carry the tie character when bit 7 is set. */
    private static final int PHONEME_MODE = PHONEMES_IPA | PHONEMES_TIE | TIE << 8;

    private static final int EE_OK = 0;

    /** espeak_VOICE: name, languages (priority byte + string pairs), identifier, gender, age, variant, xx1, score, spare. */
    static final StructLayout VOICE = MemoryLayout.structLayout(
            ValueLayout.ADDRESS.withName("name"),
            ValueLayout.ADDRESS.withName("languages"),
            ValueLayout.ADDRESS.withName("identifier"),
            ValueLayout.JAVA_BYTE.withName("gender"),
            ValueLayout.JAVA_BYTE.withName("age"),
            ValueLayout.JAVA_BYTE.withName("variant"),
            ValueLayout.JAVA_BYTE.withName("xx1"),
            ValueLayout.JAVA_INT.withName("score"),
            ValueLayout.ADDRESS.withName("spare"));

    private static final ReentrantLock LOCK = new ReentrantLock();

    private final String location;
    private final String version;
    private final String dataPath;
    /** Language code to the identifier of its first voice, in espeak's order (its best match first). */
    private final Map<String, String> voices;

    private final MethodHandle setVoiceByName;
    private final MethodHandle textToPhonemes;
    private String currentVoice; // guarded by LOCK

    private EspeakNg(
            String location,
            String version,
            String dataPath,
            Map<String, String> voices,
            MethodHandle setVoiceByName,
            MethodHandle textToPhonemes) {
        this.location = location;
        this.version = version;
        this.dataPath = dataPath;
        this.voices = Collections.unmodifiableMap(voices);
        this.setVoiceByName = setVoiceByName;
        this.textToPhonemes = textToPhonemes;
    }

    private static final class Holder {
        static final Object LOADED = load(SONAMES);
    }

    /** The process-wide instance; throws {@link EspeakUnavailableException} saying what to install when there is none. */
    public static EspeakNg get() {
        return require(Holder.LOADED);
    }

    static EspeakNg require(Object loaded) {
        if (loaded instanceof EspeakNg e) return e;
        throw new EspeakUnavailableException((String) loaded);
    }

    /** An initialized binding, or the reason (a String) why there is none. */
    static Object load(List<String> sonames) {
        NativeLibrary lib = NativeLibrary.find(sonames, List.of(), "espeak_Info");
        if (!lib.found()) {
            return "espeak-ng, which Kokoro's text front end needs, is not installed: " + sonames.getFirst()
                    + " not found (" + lib.searchReport() + "); " + INSTALL;
        }
        Linker linker = Linker.nativeLinker();
        var s = lib.symbols();
        MethodHandle initialize, info, listVoices, setVoice, toPhonemes;
        try {
            initialize = linker.downcallHandle(
                    s.findOrThrow("espeak_Initialize"),
                    FunctionDescriptor.of(
                            ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT,
                            ValueLayout.ADDRESS,
                            ValueLayout.JAVA_INT));
            info = linker.downcallHandle(
                    s.findOrThrow("espeak_Info"), FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            listVoices = linker.downcallHandle(
                    s.findOrThrow("espeak_ListVoices"),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            setVoice = linker.downcallHandle(
                    s.findOrThrow("espeak_SetVoiceByName"),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            toPhonemes = linker.downcallHandle(
                    s.findOrThrow("espeak_TextToPhonemes"),
                    FunctionDescriptor.of(
                            ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        } catch (RuntimeException e) { // a library of that name without the calls: not espeak-ng
            return lib.location() + " loads but lacks libespeak-ng's calls (" + e.getMessage()
                    + "), which Kokoro's text front end needs; " + INSTALL;
        }
        try (Arena arena = Arena.ofConfined()) {
            int rate =
                    (int) initialize.invokeExact(AUDIO_OUTPUT_SYNCHRONOUS, 0, MemorySegment.NULL, INITIALIZE_DONT_EXIT);
            if (rate <= 0) {
                return lib.location() + " cannot load its phoneme data (espeak_Initialize returned " + rate
                        + "; ESPEAK_DATA_PATH=" + System.getenv("ESPEAK_DATA_PATH")
                        + "), which Kokoro's text front end needs; " + INSTALL;
            }
            MemorySegment pathOut = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment v = (MemorySegment) info.invokeExact(pathOut);
            MemorySegment path = pathOut.get(ValueLayout.ADDRESS, 0);
            Map<String, String> voices = new LinkedHashMap<>();
            // a NULL spec lists every voice but the variants and mbrola voices, as a NULL-terminated array
            MemorySegment list =
                    ((MemorySegment) listVoices.invokeExact(MemorySegment.NULL)).reinterpret(Long.MAX_VALUE);
            for (long i = 0; ; i++) {
                MemorySegment voice = list.getAtIndex(ValueLayout.ADDRESS, i);
                if (voice.equals(MemorySegment.NULL)) break;
                voice = voice.reinterpret(VOICE.byteSize());
                String language = firstLanguage(voice.get(
                        ValueLayout.ADDRESS, VOICE.byteOffset(MemoryLayout.PathElement.groupElement("languages"))));
                String identifier = cString(voice.get(
                        ValueLayout.ADDRESS, VOICE.byteOffset(MemoryLayout.PathElement.groupElement("identifier"))));
                if (!language.isEmpty() && !identifier.isEmpty()) voices.putIfAbsent(language, identifier);
            }
            return new EspeakNg(lib.location(), cString(v), cString(path), voices, setVoice, toPhonemes);
        } catch (Throwable t) {
            return lib.location() + ": espeak_Initialize failed (" + t + ")";
        }
    }

    /** The first language of a voice's list: a priority byte, then the code as a C string. */
    private static String firstLanguage(MemorySegment languages) {
        if (languages.equals(MemorySegment.NULL)) return "";
        MemorySegment all = languages.reinterpret(Long.MAX_VALUE);
        return all.get(ValueLayout.JAVA_BYTE, 0) == 0 ? "" : all.getString(1);
    }

    private static String cString(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? "" : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** espeak-ng's version, e.g. "1.51". */
    public String version() {
        return version;
    }

    /** The espeak-ng-data folder the library reads. */
    public String dataPath() {
        return dataPath;
    }

    /** The file the library was loaded from. */
    public String location() {
        return location;
    }

    /**
     * The languages espeak has a voice for (e.g. "en-us", "en-gb", "fr-fr", "cmn"), each with the identifier of the voice
     * used for it: the first espeak lists for that language, as phonemizer picks it.
     */
    public Map<String, String> languages() {
        return voices;
    }

    /**
     * The IPA phonemes espeak gives {@code text} in {@code language} (a key of {@link #languages()}), with stress marks and {@link #TIE} between the letters
     * of a multi-letter phoneme; words are separated by spaces, and so are espeak's clauses, whose punctuation espeak
     * does not write. Language switches come out as espeak writes them, e.g. "(en)".
     */
    public String textToPhonemes(String language, String text) {
        String voice = voices.get(language);
        if (voice == null) {
            throw new IllegalArgumentException("espeak-ng " + version + " has no voice for language \"" + language
                    + "\" (espeak-ng --voices lists those in " + dataPath + ")");
        }
        if (text.isBlank()) return "";
        LOCK.lock();
        try {
            int rc = select(voice);
            if (rc != EE_OK) {
                throw new IllegalStateException("espeak-ng " + version + " lists voice " + voice + " for \"" + language
                        + "\" but will not load it (espeak_SetVoiceByName returned " + rc + ")");
            }
            try (Arena arena = Arena.ofConfined()) {
                // a NUL would end the C string early and drop the rest of the text without a word
                MemorySegment chars = arena.allocateFrom(text.replace('\0', ' '));
                MemorySegment cursor = arena.allocate(ValueLayout.ADDRESS);
                cursor.set(ValueLayout.ADDRESS, 0, chars);
                StringBuilder out = new StringBuilder();
                // one clause a call; espeak moves the cursor past it and sets it to NULL after the last
                while (true) {
                    MemorySegment before = cursor.get(ValueLayout.ADDRESS, 0);
                    if (before.equals(MemorySegment.NULL)) break;
                    MemorySegment phonemes =
                            (MemorySegment) textToPhonemes.invokeExact(cursor, CHARS_UTF8, PHONEME_MODE);
                    String clause = cString(phonemes).strip();
                    if (!clause.isEmpty()) {
                        if (!out.isEmpty()) out.append(' ');
                        out.append(clause);
                    }
                    MemorySegment after = cursor.get(ValueLayout.ADDRESS, 0);
                    if (!after.equals(MemorySegment.NULL) && after.address() <= before.address()) {
                        throw new IllegalStateException(
                                "espeak_TextToPhonemes did not advance through the text at byte "
                                        + (before.address() - chars.address()) + " of " + (chars.byteSize() - 1));
                    }
                }
                return out.toString();
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("espeak_TextToPhonemes failed", t);
        } finally {
            LOCK.unlock();
        }
    }

    /** Selects a voice unless it is already selected; the caller holds LOCK. */
    private int select(String voice) {
        if (voice.equals(currentVoice)) return EE_OK;
        try (Arena arena = Arena.ofConfined()) {
            int rc = (int) setVoiceByName.invokeExact(arena.allocateFrom(voice));
            // a failed select may leave espeak without a usable voice, so the next call selects again
            currentVoice = rc == EE_OK ? voice : null;
            return rc;
        } catch (Throwable t) {
            currentVoice = null;
            throw new IllegalStateException("espeak_SetVoiceByName(\"" + voice + "\") failed", t);
        }
    }
}
