#version 450
// Nested loops with a labelled-style exit from the inner loop through a flag.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint acc = 0u;
    bool done = false;
    for (uint y = 0u; y < 8u && !done; y++) {
        for (uint x = 0u; x < 8u; x++) {
            acc += (x ^ y) * (i + 1u);
            if (acc > 4000u + i * 10u) { done = true; break; }
            if (x > y) break;
        }
    }
    o[i] = acc;
}
