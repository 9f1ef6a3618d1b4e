#version 450
// 16-bit loads from a storage and a uniform buffer and 16-bit stores, neighbouring
// invocations writing the two halves of one dword, with 16-bit integer and float
// arithmetic between.
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint16_t a[256]; float16_t h[256]; };
layout(std430, set = 0, binding = 1) buffer Out { uint16_t b[256]; float16_t g[256]; uint w[256]; };
layout(std140, set = 0, binding = 2) uniform U { u16vec4 k; f16vec2 s; };
layout(push_constant) uniform P { uint16_t pa; uint16_t pb; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint16_t x = a[i];
    b[i] = x * uint16_t(3) + a[i ^ 1u] + k[i & 3u] + pb;
    g[i] = h[i] * s.x + float16_t(x & uint16_t(15));
    w[i] = (uint(x ^ pa) << 16) | (uint(int16_t(x) >> int16_t(3)) & 0xffffu);
}
