#version 450
// Shifts by amounts at and past the width: the hardware takes the amount modulo 32.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], n = i; // 0..255: past 32 on purpose
    o[i * 3u] = x << n;
    o[i * 3u + 1u] = x >> n;
    o[i * 3u + 2u] = uint(int(x) >> n);
}
