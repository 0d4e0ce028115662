#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#define SUBGROUP 0
#include "reduction.glsl"
