package dev.audioengine.weights;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/** Opens weight files by memory-mapping them; the format is chosen by magic bytes, then by extension. */
public final class WeightFiles {
    private WeightFiles() {}

    /**
     * Maps {@code path} read-only and reads its tensor directory. whisper.cpp's ggml files by their 0x67676d6c magic; GGUF is recognised by its
     * "GGUF" magic (or a .gguf name), safetensors by a .safetensors name or, failing that, a
     * '{' at byte 8 where its JSON header starts.
     *
     * @throws WeightFormatException the file is not a valid safetensors or GGUF file
     * @throws IOException           the file cannot be opened or mapped
     */
    public static WeightFile open(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0) throw new WeightFormatException(path, 0, "the file is empty");
            Arena arena = Arena.ofShared();
            try {
                MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
                WeightFile file = switch (detect(path, mapped)) {
                    case GGUF -> GgufReader.read(path, arena, mapped);
                    case SAFETENSORS -> SafetensorsReader.read(path, arena, mapped);
                    case GGML_WHISPER -> GgmlWhisperReader.read(path, arena, mapped);
                };
                return file;
            } catch (IOException | RuntimeException | Error e) {
                arena.close();
                throw e;
            }
        }
    }

    static WeightFormat detect(Path path, MemorySegment mapped) throws WeightFormatException {
        long size = mapped.byteSize();
        if (size >= 4 && mapped.get(ValueLayout.JAVA_INT_UNALIGNED, 0) == GgufReader.MAGIC) return WeightFormat.GGUF;
        if (size >= 4 && mapped.get(ValueLayout.JAVA_INT_UNALIGNED, 0) == GgmlWhisperReader.MAGIC)
            return WeightFormat.GGML_WHISPER;
        String name =
                path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".gguf")) return WeightFormat.GGUF;
        if (name.endsWith(".safetensors")) return WeightFormat.SAFETENSORS;
        if (size >= 9 && mapped.get(ValueLayout.JAVA_BYTE, 8) == '{') return WeightFormat.SAFETENSORS;
        throw new WeightFormatException(
                path,
                0,
                "neither GGUF (no 'GGUF' magic) nor safetensors (no .safetensors name"
                        + " and no '{' at byte 8); expected a .gguf or .safetensors file");
    }
}
