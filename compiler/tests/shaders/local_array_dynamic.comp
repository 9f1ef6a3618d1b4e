#version 450
// A local array indexed by values known only at run time lives in scratch memory.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint t[16];
    for (uint k = 0u; k < 16u; k++)
        t[k] = a[(i + k) % 256u] ^ k;
    uint acc = 0u;
    for (uint k = 0u; k < 16u; k++)
        acc = acc * 31u + t[(k * 7u + i) & 15u];
    t[i & 15u] = acc;
    o[i] = t[(i + 3u) & 15u] + t[i & 15u];
}
