#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// Narrowing conversions to 16 bits, at run time and folded by the compiler: float to u16
// clamps to [0, 65535] and float to i16 to [-32768, 32767] (cov.f32u16/cov.f32s16);
// integer to u16 truncates (cov.u32u16).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float f[]; };
layout(set = 0, binding = 1) readonly buffer B { uint u[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i * 4u] = uint(uint16_t(f[i]));
    o[i * 4u + 1u] = uint(uint16_t(u[i]));
    o[i * 4u + 2u] = uint(int(int16_t(f[i])));
    // Variables, not constant expressions: glslang leaves these conversions to the
    // compiler, whose constant folder must give what the hardware computes.
    float above = 70000.5, below = -3.0, wide = -40000.0;
    uint word = 0x12345u;
    o[i * 4u + 3u] = uint(uint16_t(above)) + (uint(uint16_t(below)) << 16)
        + uint(uint16_t(word)) * 3u + uint(int(int16_t(wide)));
}
