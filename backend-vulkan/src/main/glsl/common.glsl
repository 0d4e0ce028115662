// Shared by every compute shader of the Vulkan backend.
// Tensors are bound as uint arrays (so one binding serves F32, F16, BF16, I32 and the block
// formats without 16- or 8-bit storage features); a tensor argument is pushed as an element
// offset plus four strides in elements, laid over the output's four (right-aligned) axes.

layout(local_size_x_id = 0) in; // workgroup size, specialization constant 0

// dtype codes: dev.audioengine.api.tensor.DType ordinals
const uint DT_F32 = 0u, DT_F16 = 1u, DT_BF16 = 2u, DT_I32 = 3u, DT_I8 = 4u, DT_Q8_0 = 5u, DT_Q4_0 = 6u;

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
    0.0)

float nan_f() { return uintBitsToFloat(0x7FC00000u); }
float inf_f() { return uintBitsToFloat(0x7F800000u); }
