#version 450
// 16-bit integers and floats read from and written to storage buffers, computed in
// 16 bits; neighbouring invocations write the two halves of each output dword.
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Input { i16vec2 p[]; };
layout(std430, binding = 1) buffer Output { int16_t s[512]; f16vec2 f[256]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    i16vec2 v = p[i];
    s[i] = v.x * v.y;
    s[i + 256u] = max(v.x, v.y) >> 1;
    f[i] = f16vec2(float16_t(v.x & int16_t(255)) * float16_t(0.25),
                   float16_t(v.y & int16_t(63)) + float16_t(0.5));
}
