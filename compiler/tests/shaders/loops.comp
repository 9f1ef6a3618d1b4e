#version 450
// A loop with break and continue, and a while loop whose trip count varies per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint sum = 0u;
    for (uint k = 0u; k < 64u; k++) {
        uint v = a[(i + k) % 256u];
        if ((v & 3u) == 0u) continue;
        if (v % 97u == 5u) break;
        sum += v & 0xffu;
    }
    uint n = a[i] & 255u, steps = 0u;
    while (n != 1u && n != 0u && steps < 200u) {
        n = (n & 1u) == 1u ? 3u * n + 1u : n / 2u;
        steps++;
    }
    o[i * 2u] = sum;
    o[i * 2u + 1u] = steps;
}
