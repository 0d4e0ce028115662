package dev.audioengine.backend.vulkan.pipeline;

/**
 * The compute shaders (sources in src/main/glsl, SPIR-V in resources under shaders/), with the
 * number of storage buffers each binds. Every shader takes its workgroup size as
 * specialization constant 0 and at most 128 bytes of push constants.
 */
public enum Shader {
    UNARY(2),
    BINARY(3),
    MATMUL(3),
    MATMUL_LARGE(3),
    GEMV(3),
    CAST(2),
    PAD(2),
    GETROWS(3),
    ROPE(3),
    REDUCTION(5),
    REDUCTION_SUBGROUP(5),
    CONV(4),
    ATTENTION(5),
    SPECTRAL(3),
    LSTM(8),
    WRITE_SLICE(3),
    KEY_MASK(2);

    public final int bindings;

    Shader(int bindings) {
        this.bindings = bindings;
    }

    String resource() {
        return "/dev/audioengine/backend/vulkan/shaders/" + name().toLowerCase(java.util.Locale.ROOT) + ".spv";
    }
}
