#version 450
// Divergent if/else chains, nested, with the condition different in
// neighbouring invocations.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = values[i];
    uint r;
    if (v % 3u == 0u) {
        r = v / 3u;
        if ((i & 1u) != 0u)
            r ^= 0x5555u;
    } else if ((v & 1u) != 0u) {
        r = v * 7u + i;
    } else {
        r = ~v;
        if (v > 0x80000000u)
            r += 11u;
        else
            r -= i;
    }
    results[i] = r;
}
