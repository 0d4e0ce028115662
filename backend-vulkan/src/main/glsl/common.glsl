// Shared by every compute shader of the Vulkan backend.
// Tensors are bound as uint arrays (so one binding serves F32, F16, BF16, I32 and the block
// formats without 16- or 8-bit storage features); a tensor argument is pushed as an element
// offset plus four strides in elements, laid over the output's four (right-aligned) axes.

layout(local_size_x_id = 0) in; // workgroup size, specialization constant 0

// dtype codes: dev.audioengine.api.tensor.DType ordinals
const uint DT_F32 = 0u, DT_F16 = 1u, DT_BF16 = 2u, DT_I32 = 3u, DT_I8 = 4u, DT_Q8_0 = 5u, DT_Q4_0 = 6u,
           DT_Q5_0 = 7u, DT_Q5_1 = 8u, DT_Q4_1 = 9u, DT_Q6_K = 10u, DT_Q4_K = 11u, DT_Q5_K = 12u, DT_Q3_K = 13u,
           DT_Q2_K = 14u;

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


// ggml's k-quants, 256 values a super-block, as engine-api's KQuants decodes them (layouts in DType's javadoc);
// e is the element, bb its super-block's first byte, and each product is taken in KQuants' order so the decode is
// bit for bit the CPU's. Super-blocks of 210, 110 and 84 bytes are not whole words, so every field is read by byte.
#define KI(e) ((e) & 255u)
#define SBYTE(buf, b) float(int(BYTE_OF(buf, b) << 24) >> 24)
// Q6_K (210 bytes): ql[128], qh[64], int8 scales[16], f16 d; q in 0..63, value d * scale * (q - 32).
#define Q6_K_Q(buf, e, bb) \
    (((BYTE_OF(buf, (bb) + 64u * (KI(e) >> 7) + (KI(e) & 31u) + 32u * ((KI(e) >> 5) & 1u)) >> (4u * ((KI(e) >> 6) & 1u))) \
      & 15u) | (((BYTE_OF(buf, (bb) + 128u + 32u * (KI(e) >> 7) + (KI(e) & 31u)) >> (2u * ((KI(e) >> 5) & 3u))) & 3u) << 4))
#define Q6_K_AT(buf, e, bb) \
    (HALF_AT(buf, (bb) + 208u) * SBYTE(buf, (bb) + 192u + (KI(e) >> 4)) * float(int(Q6_K_Q(buf, e, bb)) - 32))
// Q4_K (144 bytes) and Q5_K (176): f16 d, f16 dmin, 12 bytes of 6-bit scales and minimums (ggml's get_scale_min_k4),
// Q5_K's qh[32], then qs[128]; sub-block j = i / 32 has value d * scale_j * q - dmin * min_j.
#define K4_SCALE(buf, q, j) ((j) < 4u ? BYTE_OF(buf, (q) + (j)) & 63u \
    : (BYTE_OF(buf, (q) + (j) + 4u) & 15u) | ((BYTE_OF(buf, (q) + (j) - 4u) >> 6) << 4))
#define K4_MIN(buf, q, j) ((j) < 4u ? BYTE_OF(buf, (q) + (j) + 4u) & 63u \
    : (BYTE_OF(buf, (q) + (j) + 4u) >> 4) | ((BYTE_OF(buf, (q) + (j)) >> 6) << 4))
#define K4_NIBBLE(buf, qs, e) ((BYTE_OF(buf, (qs) + 32u * (KI(e) >> 6) + (KI(e) & 31u)) >> (4u * ((KI(e) >> 5) & 1u))) & 15u)
#define Q4_K_AT(buf, e, bb) \
    ((HALF_AT(buf, bb) * float(K4_SCALE(buf, (bb) + 4u, KI(e) >> 5))) * float(K4_NIBBLE(buf, (bb) + 16u, e)) \
     - HALF_AT(buf, (bb) + 2u) * float(K4_MIN(buf, (bb) + 4u, KI(e) >> 5)))
#define Q5_K_AT(buf, e, bb) \
    ((HALF_AT(buf, bb) * float(K4_SCALE(buf, (bb) + 4u, KI(e) >> 5))) \
     * float(K4_NIBBLE(buf, (bb) + 48u, e) | (((BYTE_OF(buf, (bb) + 16u + (KI(e) & 31u)) >> (KI(e) >> 5)) & 1u) << 4)) \
     - HALF_AT(buf, (bb) + 2u) * float(K4_MIN(buf, (bb) + 4u, KI(e) >> 5)))
// Element e's two low bits in Q3_K's and Q2_K's qs (starting at byte qs).
#define K2_BITS(buf, qs, e) ((BYTE_OF(buf, (qs) + 32u * (KI(e) >> 7) + (KI(e) & 31u)) >> (2u * ((KI(e) >> 5) & 3u))) & 3u)
// Q3_K (110 bytes): hmask[32], qs[64], 12 bytes of sixteen 6-bit scales (stored + 32), f16 d; q = the two bits,
// less 4 unless bit i / 32 of hmask[i % 32] is set; value d * (scale - 32) * q.
#define Q3_K_SCALE(buf, sc, j) \
    (int(((j) < 8u ? BYTE_OF(buf, (sc) + (j)) & 15u : BYTE_OF(buf, (sc) + (j) - 8u) >> 4) \
         | (((BYTE_OF(buf, (sc) + 8u + ((j) & 3u)) >> (2u * ((j) >> 2))) & 3u) << 4)) - 32)
#define Q3_K_AT(buf, e, bb) \
    ((HALF_AT(buf, (bb) + 108u) * float(Q3_K_SCALE(buf, (bb) + 96u, KI(e) >> 4))) \
     * float(int(K2_BITS(buf, (bb) + 32u, e)) - (((BYTE_OF(buf, (bb) + (KI(e) & 31u)) >> (KI(e) >> 5)) & 1u) != 0u ? 0 : 4)))
// Q2_K (84 bytes): scales[16] (scale low nibble, minimum high), qs[64], f16 d, f16 dmin;
// value d * scale * q - dmin * min.
#define Q2_K_AT(buf, e, bb) \
    ((HALF_AT(buf, (bb) + 80u) * float(BYTE_OF(buf, (bb) + (KI(e) >> 4)) & 15u)) * float(K2_BITS(buf, (bb) + 16u, e)) \
     - HALF_AT(buf, (bb) + 82u) * float(BYTE_OF(buf, (bb) + (KI(e) >> 4)) >> 4))

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
    (dtype) == DT_Q6_K ? Q6_K_AT(buf, e, ((e) >> 8) * 210u) : \
    (dtype) == DT_Q4_K ? Q4_K_AT(buf, e, ((e) >> 8) * 144u) : \
    (dtype) == DT_Q5_K ? Q5_K_AT(buf, e, ((e) >> 8) * 176u) : \
    (dtype) == DT_Q3_K ? Q3_K_AT(buf, e, ((e) >> 8) * 110u) : \
    (dtype) == DT_Q2_K ? Q2_K_AT(buf, e, ((e) >> 8) * 84u) : \
    0.0)

float nan_f() { return uintBitsToFloat(0x7FC00000u); }
float inf_f() { return uintBitsToFloat(0x7F800000u); }
