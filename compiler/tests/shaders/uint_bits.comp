#version 450
// Unsigned arithmetic and bitwise operations, shifts by variable amounts below 32.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], y = a[(i + 1u) % 256u] | 1u, s = i & 31u;
    o[i * 8u + 0u] = x / y;
    o[i * 8u + 1u] = x % y;
    o[i * 8u + 2u] = x << s;
    o[i * 8u + 3u] = x >> s;
    o[i * 8u + 4u] = uint(int(x) >> s);
    o[i * 8u + 5u] = (x & y) ^ (~x | y);
    o[i * 8u + 6u] = x * 16u + x / 8u + x % 4u;
    o[i * 8u + 7u] = min(x, y) + max(x, y);
}
