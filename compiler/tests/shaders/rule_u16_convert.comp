#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// Narrowing conversions: float to u16 clamps, integer to u16 truncates.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float f[]; };
layout(set = 0, binding = 1) readonly buffer B { uint u[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i * 2u] = uint(uint16_t(f[i]));
    o[i * 2u + 1u] = uint(uint16_t(u[i]));
}
