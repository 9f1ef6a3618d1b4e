#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integer arithmetic, stored as two 32-bit halves.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uvec2 o[]; };
uvec2 halves(uint64_t v) { return uvec2(uint(v), uint(v >> 32)); }
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t x = (uint64_t(a[i]) << 32) | uint64_t(a[(i + 7u) % 256u]);
    uint64_t y = uint64_t(a[(i + 3u) % 256u]) * 977ul;
    int64_t s = int64_t(x);
    o[i * 6u + 0u] = halves(x + y);
    o[i * 6u + 1u] = halves(x - y);
    o[i * 6u + 2u] = halves(x * y);
    o[i * 6u + 3u] = halves((x >> (i % 64u)) ^ (y << (i % 61u)));
    o[i * 6u + 4u] = halves(uint64_t(s >> 17));
    o[i * 6u + 5u] = uvec2(uint(x < y), uint(s < 0l) + uint(x == y) * 2u);
}
