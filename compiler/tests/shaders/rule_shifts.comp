#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// Shifts by amounts at and past the width, at run time and folded by the compiler: the
// hardware takes the amount modulo the width (32, or 16 for 16-bit shifts), so x << 40 is
// x << 8, while (x << 20) << 20 shifts everything out.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], n = i; // 0..255: past 32 on purpose
    o[i * 8u] = x << n;
    o[i * 8u + 1u] = x >> n;
    o[i * 8u + 2u] = uint(int(x) >> n);
    uint16_t h = uint16_t(x), m = uint16_t(n & 31u);
    o[i * 8u + 3u] = uint(h << m) | (uint(uint16_t(h >> m)) << 16);
    // Constant amounts (variables, so that glslang does not fold them).
    uint forty = 40u, twenty = 20u;
    o[i * 8u + 4u] = x << forty;
    o[i * 8u + 5u] = (x << twenty) << twenty;
    o[i * 8u + 6u] = (x >> twenty) >> twenty;
    o[i * 8u + 7u] = uint((int(x) >> twenty) >> twenty);
}
