#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Half-precision arithmetic, converted back to float.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t h = float16_t(a[i]), g = float16_t(a[255u - i]);
    o[i * 4u + 0u] = float(h * g + h);
    o[i * 4u + 1u] = float(h - g);
    o[i * 4u + 2u] = float(max(h, g)) + float(floor(h));
    o[i * 4u + 3u] = float(h < g ? h : g * float16_t(0.5));
}
