package dev.audioengine.weights;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads whisper.cpp's own model files ({@code ggml-*.bin}, the format before GGUF), as whisper.cpp's
 * {@code whisper_model_load} reads them: the u32 magic 0x67676d6c, eleven i32 hyperparameters (n_vocab, n_audio_ctx,
 * n_audio_state, n_audio_head, n_audio_layer, n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype),
 * the mel filterbank (i32 n_mel, i32 n_fft, then n_mel·n_fft f32), the vocabulary (i32 count, then per token a u32
 * length and that many raw bytes), then tensors until the end of the file: i32 n_dims, i32 name length, i32 ggml type,
 * n_dims i32 dimensions (innermost first), the name, the data. All little-endian.
 * <p>
 * Tensor data in these files is not aligned (each follows its name directly), so the tensors are copied into
 * 64-byte-aligned memory owned by the returned file: the engine's kernels read floats aligned. Offsets in the
 * tensors' {@link TensorInfo} are into that copy. The mel filterbank is the tensor {@value #MEL_FILTERS} [n_mel, n_fft];
 * the hyperparameters are Integer metadata under {@value #HPARAM_PREFIX} plus their names above; the vocabulary is the
 * metadata {@value #VOCAB}, an immutable List of byte[] (one per token id, the token's raw bytes; copies).
 */
final class GgmlWhisperReader {
    /** GGML_FILE_MAGIC, "ggml" as a little-endian u32 (bytes 6c 6d 67 67). */
    static final int MAGIC = 0x67676d6c;

    static final String HPARAM_PREFIX = "whisper.", VOCAB = "whisper.vocab", MEL_FILTERS = "whisper.mel_filters";

    static final List<String> HPARAMS = List.of(
            "n_vocab",
            "n_audio_ctx",
            "n_audio_state",
            "n_audio_head",
            "n_audio_layer",
            "n_text_ctx",
            "n_text_state",
            "n_text_head",
            "n_text_layer",
            "n_mels",
            "ftype");

    private static final int ALIGN = 64;

    private GgmlWhisperReader() {}

    static WeightFile read(Path file, Arena arena, MemorySegment mapped) throws WeightFormatException {
        ByteCursor in = new ByteCursor(file, mapped, 0);
        if (in.u32("magic") != MAGIC) throw in.error(0, "not a whisper.cpp ggml file (no 0x67676d6c magic)");
        Map<String, Object> metadata = new LinkedHashMap<>();
        for (String h : HPARAMS) {
            long at = in.position();
            int v = in.u32(h);
            if (v < 0 || (v == 0 && !h.equals("ftype")))
                throw in.error(at, "hyperparameter " + h + " is " + v + "; a whisper.cpp file has positive ones");
            metadata.put(HPARAM_PREFIX + h, v);
        }
        long filtersAt = in.position();
        int nMel = in.u32("mel filter count"), nFft = in.u32("mel filter width");
        if (nMel < 1 || nFft < 1 || (long) nMel * nFft > in.remaining() / 4)
            throw in.error(filtersAt, "a mel filterbank of " + nMel + " x " + nFft + " does not fit the file");
        long filtersData = in.position();
        in.skip(4L * nMel * nFft, "mel filters");

        long vocabAt = in.position();
        int count = in.u32("vocabulary size");
        if (count < 0 || count > in.remaining() / 4)
            throw in.error(vocabAt, "a vocabulary of " + count + " tokens does not fit the file");
        List<byte[]> vocab = new ArrayList<>(count);
        for (int i = 0; i < count; i++) vocab.add(token(in, mapped, i));
        metadata.put(VOCAB, java.util.Collections.unmodifiableList(vocab));

        // quantized: the ggml type dequantized to F32 at open (null when the bytes are copied as they are)
        record Found(String name, DType dtype, long[] dims, long at, long bytes, GgmlType quantized) {}
        List<Found> found = new ArrayList<>();
        found.add(new Found(MEL_FILTERS, DType.F32, new long[] {nMel, nFft}, filtersData, 4L * nMel * nFft, null));
        while (in.remaining() > 0) {
            long infoAt = in.position();
            int nDims = in.u32("tensor dimension count"), nameLength = in.u32("tensor name length");
            long typeAt = in.position();
            int type = in.u32("tensor type");
            if (nDims < 1 || nDims > 4)
                throw in.error(infoAt, "a tensor of " + nDims + " dimensions; whisper.cpp writes 1 to 4");
            if (nameLength < 1 || nameLength > 4096)
                throw in.error(infoAt, "a tensor name of " + nameLength + " bytes");
            long[] dims = new long[nDims]; // ggml lists the innermost dimension first; the engine the outermost
            for (int d = 0; d < nDims; d++) {
                long at = in.position();
                int ne = in.u32("dimension " + d);
                if (ne < 1) throw in.error(at, "dimension " + d + " is " + ne);
                dims[nDims - 1 - d] = ne;
            }
            in.require(nameLength, "tensor name");
            String name = new String(
                    mapped.asSlice(in.position(), nameLength).toArray(ValueLayout.JAVA_BYTE),
                    java.nio.charset.StandardCharsets.UTF_8);
            in.skip(nameLength, "tensor name");
            DType dtype = GgmlType.engineType(type);
            GgmlType blocks = GgmlType.of(type);
            if (dtype == null && blocks != null && GgmlBlocks.blockValues(blocks) > 0) {
                // a block type the engine has no type of its own for: dequantized to F32 below
                long inner = dims[nDims - 1], elements = 1;
                for (long n : dims) elements *= n;
                int per = GgmlBlocks.blockValues(blocks);
                if (inner % per != 0)
                    throw in.error(
                            infoAt,
                            "tensor '" + name + "' is " + blocks + " with rows of " + inner + " values, not a multiple"
                                    + " of its blocks of " + per);
                long stored = elements / per * GgmlBlocks.blockBytes(blocks);
                in.require(stored, "data of tensor '" + name + "'");
                found.add(new Found(name, DType.F32, dims, in.position(), 4 * elements, blocks));
                in.skip(stored, "data of tensor '" + name + "'");
                continue;
            }
            if (dtype == null)
                throw in.error(
                        typeAt,
                        "tensor '" + name + "' is ggml type " + type + " (" + GgmlType.nameOf(type)
                                + "); the engine reads whisper.cpp files of F32, F16, BF16 tensors and the quantized"
                                + " types Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K and Q6_K");
            long bytes = TensorExtents.byteSize(file, infoAt, name, dtype, dims);
            found.add(new Found(name, dtype, dims, in.position(), bytes, null));
            in.skip(bytes, "data of tensor '" + name + "'");
        }

        long total = 0;
        for (Found f : found) total += (f.bytes() + ALIGN - 1) / ALIGN * ALIGN;
        MemorySegment copy = dev.audioengine.api.tensor.NativeMemory.zeroed(arena, Math.max(total, 1), ALIGN);
        Map<String, TensorInfo> tensors = new LinkedHashMap<>();
        long at = 0;
        for (Found f : found) {
            if (f.quantized() == null) MemorySegment.copy(mapped, f.at(), copy, at, f.bytes());
            else
                GgmlBlocks.dequantize(
                        f.quantized(), mapped, f.at(), f.bytes() / 4 / GgmlBlocks.blockValues(f.quantized()), copy, at);
            if (tensors.putIfAbsent(f.name(), new TensorInfo(f.name(), f.dtype(), new Shape(f.dims()), at, f.bytes()))
                    != null) throw in.error(f.at(), "tensor '" + f.name() + "' appears twice");
            at += (f.bytes() + ALIGN - 1) / ALIGN * ALIGN;
        }
        return new WeightFile(file, WeightFormat.GGML_WHISPER, arena, copy, tensors, metadata);
    }

    /**
     * Token {@code i} of the vocabulary: its length, then its bytes. A call per token, its messages built only for a
     * bad file: a one-shot job runs without on-stack replacement, and 51,865 turns of a loop that formatted two
     * strings a token ran whole in the interpreter (about 40 ms of a Whisper load on a 2-core VM).
     */
    private static byte[] token(ByteCursor in, MemorySegment mapped, int i) throws WeightFormatException {
        long at = in.position();
        if (in.remaining() < 4) in.require(4, "length of token " + i); // throws, naming the token
        int len = in.u32("a token's length");
        if (len < 0 || len > in.remaining())
            throw in.error(at, "token " + i + " claims " + Integer.toUnsignedString(len) + " bytes");
        byte[] bytes = mapped.asSlice(in.position(), len).toArray(ValueLayout.JAVA_BYTE);
        in.skip(len, "a token's bytes"); // cannot fail: len fits, checked above
        return bytes;
    }
}
