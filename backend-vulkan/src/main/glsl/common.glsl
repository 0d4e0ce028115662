// Shared by every compute shader of the Vulkan backend.
// Tensors are bound as uint arrays (so one binding serves F32, F16, BF16, I32 and the block
// formats without 16- or 8-bit storage features); a tensor argument is pushed as an element
// offset plus four strides in elements, laid over the output's four (right-aligned) axes.

layout(local_size_x_id = 0) in; // workgroup size, specialization constant 0

// dtype codes: dev.audioengine.api.tensor.DType ordinals
const uint DT_F32 = 0u, DT_F16 = 1u, DT_BF16 = 2u, DT_I32 = 3u, DT_I8 = 4u, DT_Q8_0 = 5u, DT_Q4_0 = 6u,
           DT_Q5_0 = 7u, DT_Q5_1 = 8u, DT_Q4_1 = 9u;

// Push constants are 32 plain words (no vector alignment rules to get wrong); each shader
// names its fields by position.
layout(push_constant) uniform Push { uint w[32]; } pc;

uint pu(uint k) { return pc.w[k]; }
float pf(uint k) { return uintBitsToFloat(pc.w[k]); }
uvec4 pu4(uint k) { return uvec4(pc.w[k], pc.w[k + 1u], pc.w[k + 2u], pc.w[k + 3u]); }

// Linear index of this workgroup; dispatches wider than maxComputeWorkGroupCount[0] spill into y.
uint group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

uint invocation() { return group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }

// Row-major coordinates of linear index i over shape (d0, d1, d2, d3).
uvec4 coords(uint i, uvec4 shape) {
    uvec4 c;
    c.w = i % shape.w; i /= shape.w;
    c.z = i % shape.z; i /= shape.z;
    c.y = i % shape.y;
    c.x = i / shape.y;
    return c;
}

uint at(uint off, uvec4 strides, uvec4 c) { return off + c.x * strides.x + c.y * strides.y + c.z * strides.z + c.w * strides.w; }

#define BYTE_OF(buf, b) ((buf[(b) >> 2] >> (((b) & 3u) << 3)) & 0xFFu)
#define HALF_OF(buf, i) ((buf[(i) >> 1] >> (((i) & 1u) << 4)) & 0xFFFFu)
// The f16 at byte b (blocks are 18, 20 or 22 bytes, so a block's halves need not be word-aligned).
#define HALF_AT(buf, b) half_bits(BYTE_OF(buf, b) | (BYTE_OF(buf, (b) + 1u) << 8))
// Element e's 4-bit code in ggml's nibble layout starting at byte b: element j of a block in the low nibble of byte j
// for j < 16, element j in the high nibble of byte j - 16 otherwise.
#define NIBBLE(buf, b, e) ((BYTE_OF(buf, (b) + ((e) & 15u)) >> ((((e) & 31u) >> 4) << 2)) & 15u)
// Element e's fifth bit from the little-endian u32 at byte b: bit j of it belongs to element j of the block.
#define FIFTH(buf, b, e) (((BYTE_OF(buf, (b) + (((e) & 31u) >> 3)) >> ((e) & 7u)) & 1u) << 4)
// ggml's Q5_0 (22 bytes: d, fifth bits, nibbles; (q - 16) d), Q5_1 (24 bytes: d, m, fifth bits, nibbles; q d + m)
// and Q4_1 (20 bytes: d, m, nibbles; q d + m), as engine-api's BlockQuantization decodes them.
#define Q5_0_AT(buf, e, bb) (HALF_AT(buf, bb) * (float(NIBBLE(buf, (bb) + 6u, e) | FIFTH(buf, (bb) + 2u, e)) - 16.0))
#define Q5_1_AT(buf, e, bb) \
    (HALF_AT(buf, bb) * float(NIBBLE(buf, (bb) + 8u, e) | FIFTH(buf, (bb) + 4u, e)) + HALF_AT(buf, (bb) + 2u))
#define Q4_1_AT(buf, e, bb) (HALF_AT(buf, bb) * float(NIBBLE(buf, (bb) + 4u, e)) + HALF_AT(buf, (bb) + 2u))

float half_bits(uint h) { return unpackHalf2x16(h).x; }
float bf16_bits(uint h) { return uintBitsToFloat(h << 16); }

// Value of element e (an index in elements into storage whose first block starts at word 0 of the binding).
#define LOAD(buf, dtype, e) ( \
    (dtype) == DT_F32 ? uintBitsToFloat(buf[e]) : \
    (dtype) == DT_F16 ? half_bits(HALF_OF(buf, e)) : \
    (dtype) == DT_BF16 ? bf16_bits(HALF_OF(buf, e)) : \
    (dtype) == DT_I32 ? float(int(buf[e])) : \
    (dtype) == DT_Q8_0 ? half_bits(BYTE_OF(buf, ((e) >> 5) * 34u) | (BYTE_OF(buf, ((e) >> 5) * 34u + 1u) << 8)) \
                         * float(int(BYTE_OF(buf, ((e) >> 5) * 34u + 2u + ((e) & 31u)) << 24) >> 24) : \
    (dtype) == DT_Q4_0 ? half_bits(BYTE_OF(buf, ((e) >> 5) * 18u) | (BYTE_OF(buf, ((e) >> 5) * 18u + 1u) << 8)) \
                         * (float((BYTE_OF(buf, ((e) >> 5) * 18u + 2u + ((e) & 15u)) >> ((((e) & 31u) >> 4) << 2)) & 15u) - 8.0) : \
    (dtype) == DT_Q5_0 ? Q5_0_AT(buf, e, ((e) >> 5) * 22u) : \
    (dtype) == DT_Q5_1 ? Q5_1_AT(buf, e, ((e) >> 5) * 24u) : \
    (dtype) == DT_Q4_1 ? Q4_1_AT(buf, e, ((e) >> 5) * 20u) : \
    0.0)

float nan_f() { return uintBitsToFloat(0x7FC00000u); }
float inf_f() { return uintBitsToFloat(0x7F800000u); }
