#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// 16-bit integer arithmetic: wraps at 16 bits.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint16_t x = uint16_t(a[i]), y = uint16_t(a[i] >> 16u);
    int16_t s = int16_t(x);
    o[i * 6u + 0u] = uint(x + y);
    o[i * 6u + 1u] = uint(x * y);
    o[i * 6u + 2u] = uint(x - y);
    o[i * 6u + 3u] = uint(x >> 3us) | (uint(y << 5us) << 16u);
    o[i * 6u + 4u] = uint(int(s >> 2s));
    o[i * 6u + 5u] = uint(x < y) + uint(s < int16_t(0)) * 2u + uint(x / (y | 1us)) * 4u;
}
