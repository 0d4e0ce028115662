#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
const uint T = 4u;
#include "matmul.glsl"
