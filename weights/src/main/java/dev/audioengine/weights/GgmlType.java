package dev.audioengine.weights;

import dev.audioengine.api.tensor.DType;

/**
 * ggml tensor types by their GGUF id, with the engine DType for those whose byte layout the
 * engine shares with ggml. Ids of types ggml has removed have no entry here.
 */
enum GgmlType {
    F32(0, DType.F32),
    F16(1, DType.F16),
    Q4_0(2, DType.Q4_0),
    Q4_1(3, DType.Q4_1),
    Q5_0(6, DType.Q5_0),
    Q5_1(7, DType.Q5_1),
    Q8_0(8, DType.Q8_0),
    Q8_1(9, null),
    Q2_K(10, DType.Q2_K),
    Q3_K(11, DType.Q3_K),
    Q4_K(12, DType.Q4_K),
    Q5_K(13, DType.Q5_K),
    Q6_K(14, DType.Q6_K),
    Q8_K(15, null),
    IQ2_XXS(16, null),
    IQ2_XS(17, null),
    IQ3_XXS(18, null),
    IQ1_S(19, null),
    IQ4_NL(20, null),
    IQ3_S(21, null),
    IQ2_S(22, null),
    IQ4_XS(23, null),
    I8(24, DType.I8),
    I16(25, null),
    I32(26, DType.I32),
    I64(27, null),
    F64(28, null),
    IQ1_M(29, null),
    BF16(30, DType.BF16),
    TQ1_0(34, null),
    TQ2_0(35, null),
    MXFP4(39, null);

    final int id;
    /** The engine type with the same byte layout, or null when the engine cannot use this type. */
    final DType dtype;

    GgmlType(int id, DType dtype) {
        this.id = id;
        this.dtype = dtype;
    }

    /** The type's name for messages ("Q4_K"), or "unknown" for ids ggml does not define. */
    static String nameOf(int id) {
        for (GgmlType t : values()) if (t.id == id) return t.name();
        return "unknown";
    }

    /** The type of ggml id {@code id}, or null for ids ggml does not define. */
    static GgmlType of(int id) {
        for (GgmlType t : values()) if (t.id == id) return t;
        return null;
    }

    static DType engineType(int id) {
        for (GgmlType t : values()) if (t.id == id) return t.dtype;
        return null;
    }
}
